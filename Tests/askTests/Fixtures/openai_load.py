"""`ask serve` under load and faults, for the suite's OpenAIServerLoadTests: CLIENTS clients of
the real `openai` Python library send REQUESTS requests in all, streamed and not (most force a
call of a client function, every eighth is a question the search answers), while raw
sockets misbehave beside them: streams hung up after their first chunk, malformed JSON, bodies
over the server's bound, a client that sends its request a few bytes at a time, one that stops
half-way through its headers and holds the connection. Prints one line per check, `PASS name` or
`FAIL name: why`, and `FIGURE name value` for what was measured.

    python openai_load.py BASE_URL API_KEY SERVER_PID MAX_BODY_BYTES REQUESTS CLIENTS

The server must run with --parallel CLIENTS and a queue of at least CLIENTS: every well-formed
request is then admitted, so each must be answered (a refusal is a failure). The checks are
about what the server returns and its memory, never what the model says.
"""

import json
import socket
import sys
import threading
import time
from urllib.parse import urlparse

try:
    import openai
except ImportError as error:  # the suite's test turns this into its message
    print(f"FAIL setup: the openai Python library is not installed ({error}); run scripts/setup.sh")
    sys.exit(3)

base_url, api_key, server_pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
max_body_bytes, requests, clients = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
address = urlparse(base_url)
HOST, PORT, PATH = address.hostname, address.port, address.path.rstrip("/") + "/chat/completions"
client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=1800)
model = client.models.list().data[0].id
QUESTIONS = ["Which trail had a waterfall?", "Where did I see wildflowers?", "Which hike was the longest?",
             "Where did I camp near a lake?", "Which trails are in Utah?", "What did I eat at the summit?",
             "Which hike was in the rain?", "Where did I see a bear?"]
# Every request offers this function, so every session's system turn is the same text, decoded
# once per parallel session and kept. Most requests force a call of it (one short round, no
# search: the server's connections, sessions and sequences at many requests a minute); every
# FULL_EVERY-th asks a question the search answers, as a user does.
PICK = {"type": "function", "function": {
    "name": "pick_trail", "description": "Choose a trail by its number.",
    "parameters": {"type": "object", "properties": {"number": {"type": "integer", "minimum": 1, "maximum": 14}}, "required": ["number"]}}}
FORCED = {"type": "function", "function": {"name": "pick_trail"}}
FULL_EVERY = 8
# Room for a short answer; the server's own cap keeps the search whole.
ANSWER_TOKENS = 24
# How much the server's memory may grow: the most it was ever resident (VmHWM) over the whole
# run against its peak after the first question alone (the model and its one context, whose KV
# cells every parallel session shares), and its resident set from the first fifth of the run to
# its end. A leak per request, or a second context made for a moment (a session's sequence not
# yet given back when the next question came), raises them by what leaked: a second context of
# eight 8K sequences is about 1.4 GiB.
MEMORY_GROWTH_LIMIT = 0.10


def report(name, problem):
    print(f"FAIL {name}: {problem}" if problem else f"PASS {name}", flush=True)


def memory_bytes(field):
    """The server's VmRSS (resident now) or VmHWM (the most it was resident), in bytes."""
    with open(f"/proc/{server_pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} for the server")


def ask(number):
    """Request `number` through the openai client: a question the search answers every
    FULL_EVERY-th time, else a forced call; streamed every third time. Why it failed, or None."""
    messages = [{"role": "user", "content": QUESTIONS[number % len(QUESTIONS)]}]
    choice = "auto" if number % FULL_EVERY == 0 else FORCED
    arguments = dict(model=model, messages=messages, max_tokens=ANSWER_TOKENS, tools=[PICK], tool_choice=choice)
    try:
        if number % 3 == 0:
            finished = None
            for chunk in client.chat.completions.create(stream=True, **arguments):
                for streamed in chunk.choices:
                    finished = streamed.finish_reason or finished
            return None if finished else "the stream ended without a finish_reason"
        completion = client.chat.completions.create(**arguments)
        return None if completion.choices[0].finish_reason else f"no finish_reason: {completion}"
    except Exception as error:  # any refusal or broken connection is the finding
        return f"{type(error).__name__}: {str(error)[:300]}"


def run_clients(first, count):
    """Requests first..<first+count from CLIENTS threads at once; the failures."""
    failures, lock, next_number = [], threading.Lock(), [first]

    def worker():
        while True:
            with lock:
                number = next_number[0]
                if number >= first + count:
                    return
                next_number[0] += 1
            asked = time.monotonic()
            problem = ask(number)
            with lock:
                if problem:
                    failures.append(f"request {number}: {problem}")
                print(f"request {number} {'failed' if problem else 'answered'} in {time.monotonic() - asked:.1f} s", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def raw(request_bytes, pause=0.0, piece=0):
    """Sends request_bytes on a new connection (in pieces of `piece` bytes with `pause` between,
    when given) and reads the whole response: (status, body)."""
    with socket.create_connection((HOST, PORT), timeout=1800) as connection:
        if piece:
            for start in range(0, len(request_bytes), piece):
                connection.sendall(request_bytes[start:start + piece])
                time.sleep(pause)
        else:
            connection.sendall(request_bytes)
        response = b""
        while True:
            data = connection.recv(65536)
            if not data:
                break
            response += data
    head, _, body = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, body


def http_request(body, content_length=None):
    return (f"POST {PATH} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nAuthorization: Bearer {api_key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body) if content_length is None else content_length}\r\n"
            "Connection: close\r\n\r\n").encode() + body


def question_body(question, stream=False, forced=False):
    return json.dumps({"model": model, "messages": [{"role": "user", "content": question}], "max_tokens": ANSWER_TOKENS,
                       "stream": stream, "tools": [PICK], "tool_choice": FORCED if forced else "auto"}).encode()


def error_shape_problem(status, body, expected):
    if status != expected:
        return f"status {status}, expected {expected}: {body[:200]!r}"
    try:
        error = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return f"the body is not OpenAI's error shape: {body[:200]!r}"
    return None if {"message", "type"} <= set(error) else f"the error lacks message or type: {error}"


def hang_up_mid_stream():
    """A streamed question whose client reads the first event and closes (the server must stop
    its generation and free its turn); why it failed, or None."""
    with socket.create_connection((HOST, PORT), timeout=1800) as connection:
        connection.sendall(http_request(question_body("Which trail had a waterfall?", stream=True)))
        received = b""
        while b"data: " not in received:
            data = connection.recv(4096)
            if not data:
                return f"the stream closed before its first event: {received[:200]!r}"
            received += data
    return None


def faults(stop, findings):
    """Misbehaving clients, over and over until `stop` is set; the first problem of each kind."""
    def note(kind, problem):
        findings[kind + " runs"] = findings.get(kind + " runs", 0) + 1
        if problem:
            findings.setdefault(kind, problem)

    stalled = socket.create_connection((HOST, PORT), timeout=1800)
    # half of a request's head, then nothing: the server must go on answering everyone else
    stalled.sendall(f"POST {PATH} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nContent-Le".encode())
    try:
        while not stop.is_set():
            note("hang up mid-stream", hang_up_mid_stream())
            note("malformed JSON", error_shape_problem(*raw(http_request(b'{"model": "x", "messages": [')), 400))
            oversized = b"{" + b" " * (max_body_bytes + 1) + b"}"
            try:
                note("oversized body", error_shape_problem(*raw(http_request(oversized)), 413))
            except (BrokenPipeError, ConnectionResetError):
                # refused from the head, before the body was read: the server may close first
                note("oversized body", None)
            status, body = raw(http_request(question_body("Where did I camp near a lake?", forced=True)), pause=0.1, piece=16)
            note("slow client", None if status == 200 and b'"choices"' in body else f"status {status}: {body[:200]!r}")
            stop.wait(1)
    finally:
        stalled.close()


first = ask(0)
failures = [f"request 0: {first}"] if first else []
peak_after_first = memory_bytes("VmHWM")
warm_up = max(2, requests // 5)
failures += run_clients(1, warm_up - 1)
resident_after_warm_up = memory_bytes("VmRSS")
stop, findings = threading.Event(), {}
misbehaving = threading.Thread(target=faults, args=(stop, findings))
misbehaving.start()
failures += run_clients(warm_up, requests - warm_up)
stop.set()
misbehaving.join()
peak_at_end, resident_at_end = memory_bytes("VmHWM"), memory_bytes("VmRSS")

report("every request answered", "; ".join(failures[:5]) + (f" (and {len(failures) - 5} more)" if len(failures) > 5 else "") if failures else None)
for kind in ("hang up mid-stream", "malformed JSON", "oversized body", "slow client"):
    runs = findings.get(kind + " runs", 0)
    report(kind, findings.get(kind) or (None if runs else "never ran"))
    print(f"FIGURE {kind} runs {runs}")
peak_growth = (peak_at_end - peak_after_first) / peak_after_first
resident_growth = (resident_at_end - resident_after_warm_up) / resident_after_warm_up
problems = []
if peak_growth > MEMORY_GROWTH_LIMIT:
    problems.append(f"the peak resident set grew {peak_growth:.1%} from the first question's ({peak_after_first >> 20} → {peak_at_end >> 20} MiB)")
if resident_growth > MEMORY_GROWTH_LIMIT:
    problems.append(f"the resident set grew {resident_growth:.1%} from request {warm_up} to {requests} ({resident_after_warm_up >> 20} → {resident_at_end >> 20} MiB)")
report("memory flat", "; ".join(problems) or None)
print(f"FIGURE peak resident MiB after the first question {peak_after_first >> 20}")
print(f"FIGURE peak resident MiB after {requests} requests {peak_at_end >> 20}")
print(f"FIGURE resident MiB after {warm_up} requests {resident_after_warm_up >> 20}")
print(f"FIGURE resident MiB after {requests} requests {resident_at_end >> 20}")
