"""An MCP client for `ask mcp`, with the real `mcp` SDK: starts the server, checks what the
suite's MCPServerTests names, and prints one line per check, `PASS name` or `FAIL name: why`.

    python mcp_client.py ASK_BINARY CORPUS.jsonl

Every check runs in both eras of the protocol, each name starting with its revision: the SDK's
handshake client (mode "legacy": `initialize`, 2025-11-25) and its stateless one (mode "auto":
it probes `server/discover` and, finding 2026-07-28, sends every request with that revision
and its capabilities in `_meta`). What no SDK sends, raw lines check, per era.

The server's index is named after the corpus file, under $XDG_DATA_HOME/lantern/indexes/. While
this client holds that index's writer lock the server cannot build it, so a tool call waits
for it however fast the machine is: that is the call the cancellation check cancels. Each era's
session serves a copy of the corpus under a name of its own, so each has an index to wait for.
Nothing here measures time; the deadline only turns a hang into a failure.
"""

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

try:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import MCPError
except ImportError as error:  # the suite's test turns this into its message
    print(f"FAIL setup: the mcp Python SDK is not installed ({error}); run scripts/setup.sh")
    sys.exit(3)

HANG_DEADLINE = 600  # seconds; a server that never answers fails instead of hanging the suite
HANDSHAKE, STATELESS = "2025-11-25", "2026-07-28"
# The SDK client's mode for each era: "auto" probes server/discover and stays stateless only
# when the server answers it, so the stateless session also checks that the probe succeeded.
MODES = {HANDSHAKE: "legacy", STATELESS: "auto"}
failures = []


def check(name, condition, why):
    print(f"PASS {name}" if condition else f"FAIL {name}: {why}", flush=True)
    if not condition:
        failures.append(name)


def text_of(result):
    return "".join(block.text for block in result.content if block.type == "text")


async def wait_for_log(log_path, words):
    """Waits until the server's stderr holds `words`."""
    while True:
        with open(log_path) as log:
            if words in log.read():
                return
        await anyio.sleep(0.05)


async def sdk_checks(ask, corpus, log_path, era):
    with anyio.fail_after(HANG_DEADLINE):
        await sdk_session(ask, corpus, log_path, era)


async def sdk_session(ask, corpus, log_path, era):
    index_name = os.path.splitext(os.path.basename(corpus))[0]
    indexes = os.path.join(os.environ["XDG_DATA_HOME"], "lantern", "indexes")
    os.makedirs(indexes, exist_ok=True)
    lock = open(os.path.join(indexes, index_name + ".sqlite.lock"), "a+")
    fcntl.flock(lock, fcntl.LOCK_EX)
    server = StdioServerParameters(command=ask, args=["mcp", "--corpus", corpus], env=dict(os.environ))
    with open(log_path, "w") as errlog:
        async with Client(stdio_client(server, errlog=errlog), mode=MODES[era]) as client:
            session = client.session
            opened = session.discover_result if era == STATELESS else session.initialize_result
            check(f"{era}: connect", client.protocol_version == era and opened is not None
                  and client.server_info is not None and client.server_info.name == "lantern"
                  and client.server_capabilities.tools is not None and "search" in (client.instructions or ""),
                  f"protocol {client.protocol_version}, discover {session.discover_result}, initialize {session.initialize_result}")

            # A call in flight while the index cannot be built, then cancelled.
            scope = anyio.CancelScope()
            outcome = {}

            async def doomed_call():
                with scope:
                    outcome["result"] = await client.call_tool("spotlight_search", {"query": {"terms": ["trail"]}})

            async with anyio.create_task_group() as group:
                group.start_soon(doomed_call)
                await wait_for_log(log_path, "(tools/call) waits for the index to open")
                scope.cancel()
            await wait_for_log(log_path, "(tools/call) was cancelled; it gets no response")
            check(f"{era}: cancelled call", "result" not in outcome and scope.cancelled_caught,
                  f"the cancelled call returned {outcome.get('result')}")
            fcntl.flock(lock, fcntl.LOCK_UN)
            lock.close()

            listed = {tool.name: tool for tool in (await client.list_tools()).tools}
            search, fetch = listed.get("spotlight_search"), listed.get("fetch_item")
            check(f"{era}: tools/list", set(listed) == {"spotlight_search", "fetch_item"}
                  and search.input_schema.get("type") == "object" and "query" in search.input_schema.get("properties", {})
                  and fetch.input_schema.get("required") == ["id"]
                  and len(search.description) > 100 and search.output_schema and fetch.output_schema,
                  f"tools {json.dumps({name: tool.model_dump(mode='json') for name, tool in listed.items()})[:2000]}")

            # The SDK checks structuredContent against the outputSchema from the listing above.
            found = await client.call_tool("spotlight_search", {"query": {"terms": ["delicate", "arch"]}})
            items = (found.structured_content or {}).get("items", [])
            ids = [item["id"] for item in items]
            check(f"{era}: search", not found.is_error and "trail-011" in ids and "trail-011" in text_of(found)
                  and found.structured_content["resultCount"] >= len(items) > 0,
                  f"result {found.model_dump(mode='json')}")

            read_back = await client.call_tool("fetch_item", {"id": "trail-011"})
            fetched = read_back.structured_content or {}
            check(f"{era}: fetch", not read_back.is_error and fetched.get("id") == "trail-011"
                  and fetched.get("attributes", {}).get("title") == "Delicate Arch Trail"
                  and len(fetched.get("text", "")) > 0 and fetched["text"][:40] in text_of(read_back),
                  f"result {read_back.model_dump(mode='json')}")

            wrong = await client.call_tool("spotlight_search", {"query": "delicate arch"})
            check(f"{era}: bad argument", wrong.is_error and "arguments.query" in text_of(wrong) and not wrong.structured_content,
                  f"result {wrong.model_dump(mode='json')}")

            unknown = await client.call_tool("fetch_item", {"id": "trail-999"})
            check(f"{era}: unknown id", unknown.is_error and "trail-999" in text_of(unknown),
                  f"result {unknown.model_dump(mode='json')}")

            try:
                await client.call_tool("no_such_tool", {})
                check(f"{era}: unknown tool", False, "the call returned instead of failing")
            except MCPError as error:
                check(f"{era}: unknown tool", error.error.code == -32602 and "no_such_tool" in error.error.message,
                      f"error {error.error}")

            if era == HANDSHAKE:  # 2026-07-28 removed ping; the raw checks send it there
                await session.send_ping()
                check(f"{era}: ping after everything", True, "")


def exchange(ask, corpus, lines, answered_ids, unanswerable):
    """Starts a server, writes `lines`, and reads until every id in `answered_ids` and
    `unanswerable` responses with a null id came back; then closes stdin. Returns the
    responses by id, those with a null id, and the server's exit status."""
    process = subprocess.Popen([ask, "mcp", "--corpus", corpus], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = threading.Timer(HANG_DEADLINE, process.kill)
    deadline.daemon = True
    deadline.start()
    process.stdin.write("\n".join(lines) + "\n")
    process.stdin.flush()
    responses, nulls = {}, []
    while not set(answered_ids) <= set(responses) or len(nulls) < unanswerable:
        line = process.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        (nulls.append(message) if message.get("id") is None else responses.__setitem__(message["id"], message))
    process.stdin.close()
    status = process.wait(timeout=HANG_DEADLINE)
    deadline.cancel()
    return responses, nulls, status


def code(message):
    return (message or {}).get("error", {}).get("code")


def raw_handshake_checks(ask, corpus):
    """What no SDK sends, in the handshake era: lines that are not JSON, batches, unknown
    methods, requests before initialize. Each must get its JSON-RPC error and leave the
    server serving."""
    era = HANDSHAKE
    lines = [
        "this is not json",
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        "[1, 2]",
        '{"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}',
        '{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        '{"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}',
        '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"arguments": {}}}',
        '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "fetch_item", "arguments": ["x"]}}',
        '{"jsonrpc": "2.0", "id": "six", "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "fetch_item", "arguments": {"id": "trail-011"}}}',
    ]
    responses, nulls, status = exchange(ask, corpus, lines, [1, 2, 3, 4, 5, "six", 7], 2)
    check(f"{era}: raw: not JSON and a batch", sorted(code(m) for m in nulls) == [-32700, -32600], f"responses with a null id: {nulls}")
    # Neither a revision in _meta nor initialize: 2026-07-28 calls that malformed (-32602).
    check(f"{era}: raw: tools/list before initialize", code(responses.get(1)) == -32602
          and "initialize" in responses[1]["error"]["message"], f"response {responses.get(1)}")
    check(f"{era}: raw: an unknown revision gets the newest handshake one",
          (responses.get(2) or {}).get("result", {}).get("protocolVersion") == HANDSHAKE, f"response {responses.get(2)}")
    check(f"{era}: raw: unknown method", code(responses.get(3)) == -32601 and "no/such/method" in responses[3]["error"]["message"],
          f"response {responses.get(3)}")
    check(f"{era}: raw: tools/call without a name", code(responses.get(4)) == -32602 and "name" in responses[4]["error"]["message"],
          f"response {responses.get(4)}")
    check(f"{era}: raw: arguments not an object", code(responses.get(5)) == -32602 and "arguments" in responses[5]["error"]["message"],
          f"response {responses.get(5)}")
    check(f"{era}: raw: ping with a string id", (responses.get("six") or {}).get("result") == {}, f"response {responses.get('six')}")
    # The handshake revisions' results have none of 2026-07-28's fields.
    called = (responses.get(7) or {}).get("result", {})
    check(f"{era}: raw: results without resultType", called.get("structuredContent", {}).get("id") == "trail-011"
          and "resultType" not in called and "_meta" not in called, f"response {responses.get(7)}")
    check(f"{era}: raw: exits 0 when stdin closes", status == 0, f"exit status {status}")


def meta(version=STATELESS, capabilities=True):
    """A request's 2026-07-28 `_meta`: its revision, the client's capabilities (none) and who it is."""
    fields = {"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}
    if capabilities:
        fields["io.modelcontextprotocol/clientCapabilities"] = {}
    return fields


def request(id, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params})


def raw_stateless_checks(ask, corpus):
    """2026-07-28 as its schema spells it, on a server that gets no initialize: discover,
    a listing and a call with `_meta`, what every result must carry, and the errors for a
    request naming no revision, an unsupported one, or no capabilities; then an initialize
    on the same process, which still agrees a handshake revision beside the stateless one."""
    era = STATELESS
    lines = [
        request(1, "server/discover", {"_meta": meta()}),
        request(2, "tools/list", {"_meta": meta()}),
        request(3, "tools/call", {"name": "fetch_item", "arguments": {"id": "trail-011"}, "_meta": meta()}),
        request(4, "tools/list", {"_meta": meta("1900-01-01")}),
        request(5, "tools/list", {"_meta": meta(capabilities=False)}),
        request(6, "tools/list", {}),
        request(7, "server/discover", {}),
        request(8, "ping", {"_meta": meta()}),
        request(9, "initialize", {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}),
        request(10, "tools/list", {}),
    ]
    responses, _, status = exchange(ask, corpus, lines, list(range(1, 11)), 0)

    def result(id):
        return (responses.get(id) or {}).get("result", {})

    def identified(answer):
        return answer.get("resultType") == "complete" and \
            answer.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {}).get("name") == "lantern"

    def cacheable(answer):
        return isinstance(answer.get("ttlMs"), int) and answer["ttlMs"] >= 0 and answer.get("cacheScope") in ("public", "private")

    discovered = result(1)
    check(f"{era}: raw: server/discover", identified(discovered) and cacheable(discovered)
          and discovered.get("supportedVersions") == [STATELESS] and "tools" in discovered.get("capabilities", {})
          and "protocolVersion" not in discovered, f"response {responses.get(1)}")
    listed = result(2)
    check(f"{era}: raw: tools/list", identified(listed) and cacheable(listed)
          and [tool["name"] for tool in listed.get("tools", [])] == ["spotlight_search", "fetch_item"]
          and all("outputSchema" in tool for tool in listed["tools"]), f"response {str(responses.get(2))[:2000]}")
    called = result(3)
    check(f"{era}: raw: tools/call", identified(called) and not called.get("isError")
          and called.get("structuredContent", {}).get("id") == "trail-011" and "ttlMs" not in called,
          f"response {str(responses.get(3))[:2000]}")
    unsupported = (responses.get(4) or {}).get("error", {})
    check(f"{era}: raw: an unsupported revision", unsupported.get("code") == -32022
          and unsupported.get("data", {}).get("requested") == "1900-01-01"
          and {STATELESS, HANDSHAKE} <= set(unsupported.get("data", {}).get("supported", [])), f"response {responses.get(4)}")
    check(f"{era}: raw: no client capabilities", code(responses.get(5)) == -32602
          and "io.modelcontextprotocol/clientCapabilities" in responses[5]["error"]["message"], f"response {responses.get(5)}")
    check(f"{era}: raw: no revision", code(responses.get(6)) == -32602 and code(responses.get(7)) == -32602
          and "io.modelcontextprotocol/protocolVersion" in responses[7]["error"]["message"],
          f"responses {responses.get(6)}, {responses.get(7)}")
    check(f"{era}: raw: ping was removed", code(responses.get(8)) == -32601, f"response {responses.get(8)}")
    check(f"{era}: raw: initialize beside it", result(9).get("protocolVersion") == HANDSHAKE
          and len(result(10).get("tools", [])) == 2 and "resultType" not in result(10),
          f"responses {responses.get(9)}, {str(responses.get(10))[:300]}")
    check(f"{era}: raw: exits 0 when stdin closes", status == 0, f"exit status {status}")


def closed_input_check(ask, corpus):
    """A client that writes its request and closes its input at once (`printf ... | ask mcp`)
    still gets the answer: the server answers what it was asked before it stops, although
    the index is still being built when the input ends."""
    process = subprocess.Popen([ask, "mcp", "--corpus", corpus], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = threading.Timer(HANG_DEADLINE, process.kill)
    deadline.daemon = True
    deadline.start()
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "fetch_item", "arguments": {"id": "trail-011"}, "_meta": meta()}}
    output, _ = process.communicate(json.dumps(request) + "\n")
    deadline.cancel()
    answers = [json.loads(line) for line in output.splitlines() if line.strip()]
    answered = [m for m in answers if m.get("id") == 1]
    check("closed input: the request sent before it is answered",
          len(answered) == 1 and answered[0].get("result", {}).get("structuredContent", {}).get("id") == "trail-011",
          f"output {output[:500]!r}")
    check("closed input: exits 0", process.returncode == 0, f"exit status {process.returncode}")


def main():
    ask, corpus = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as folder:
        for era in (HANDSHAKE, STATELESS):
            # Each era's session its own index (named after the corpus file) to hold and wait for.
            served = os.path.join(folder, f"trails-{era}.jsonl")
            shutil.copyfile(corpus, served)
            log_path = os.path.join(folder, f"server-stderr-{era}.log")
            try:
                anyio.run(sdk_checks, ask, served, log_path, era)
            except Exception as error:
                with open(log_path) as log:
                    check(f"{era}: sdk session", False, f"{type(error).__name__}: {error}; server stderr:\n{log.read()[-3000:]}")
    raw_handshake_checks(ask, corpus)
    raw_stateless_checks(ask, corpus)
    with tempfile.TemporaryDirectory() as folder:
        fresh = os.path.join(folder, "trails-closed-input.jsonl")
        shutil.copyfile(corpus, fresh)
        closed_input_check(ask, fresh)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
