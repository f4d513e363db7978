"""An OpenAI API client for `ask serve`, with the real `openai` Python library: checks what the
suite's OpenAIServerTests names against a server the test started, and prints one line per
check, `PASS name` or `FAIL name: why`.

    python openai_client.py BASE_URL API_KEY CORPUS.jsonl MAX_BODY_BYTES [CHECK ...]

With CHECK names, only those checks run.

The checks are about what the server guarantees (the shapes, a non-empty answer, sources that
are items of the corpus, each refusal's status and error body, a forced call that matches its
function's schema, usage that adds up, answers that do not cross between concurrent clients),
never about what the model chooses to say. Retries are off, so a refusal is seen as sent.

The server must run with --parallel 2 --queue 1 (the concurrency checks count on three
admitted at once and a fourth refused).
"""

import json
import re
import sys
import threading

try:
    import openai
except ImportError as error:  # the suite's test turns this into its message
    print(f"FAIL setup: the openai Python library is not installed ({error}); run scripts/setup.sh")
    sys.exit(3)

base_url, api_key, corpus_path, max_body_bytes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(corpus_path) as corpus:
    corpus_ids = {json.loads(line)["id"] for line in corpus if line.strip()}
client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=900)
QUESTION = [{"role": "system", "content": "Answer from the user's notes."},
            {"role": "user", "content": "Which trail had a waterfall?"}]
ERROR_KEYS = {"message", "type", "param", "code"}
# The checks that offer functions offer both, so their system turn (tools included) is one text
# that each parallel session decodes once and keeps; a new one costs ~1,200 tokens of prefill.
# a client function whose schema leaves the model choices to get wrong: the grammar must not let it
WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather at a place on a day.",
    "parameters": {"type": "object", "properties": {
        "place": {"type": "string", "maxLength": 40},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 7}},
        "required": ["place", "unit", "days"], "additionalProperties": False}}}
PICK = {"type": "function", "function": {
    "name": "pick_trail", "description": "Choose a trail by its number.",
    "parameters": {"type": "object", "properties": {"number": {"type": "integer", "minimum": 1, "maximum": 14}}, "required": ["number"]}}}


def weather_problem(arguments):
    """Why `arguments` (a JSON string) does not match WEATHER's schema, or None."""
    try:
        value = json.loads(arguments)
    except ValueError as error:
        return f"arguments are not JSON: {arguments!r} ({error})"
    if not isinstance(value, dict) or set(value) != {"place", "unit", "days"}:
        return f"not exactly the required keys: {value!r}"
    if not isinstance(value["place"], str) or len(value["place"]) > 40:
        return f"place breaks its schema: {value['place']!r}"
    if value["unit"] not in ("celsius", "fahrenheit"):
        return f"unit is not in the enum: {value['unit']!r}"
    if type(value["days"]) is not int or not 1 <= value["days"] <= 7:
        return f"days is not an integer 1-7: {value['days']!r}"
    return None


def usage_problem(usage):
    """Why a usage does not add up, or None."""
    if usage is None:
        return "no usage"
    if usage.prompt_tokens <= 0 or usage.completion_tokens <= 0:
        return f"usage counts nothing: {usage}"
    if usage.total_tokens != usage.prompt_tokens + usage.completion_tokens:
        return f"total_tokens is not prompt + completion: {usage}"
    cached = usage.prompt_tokens_details.cached_tokens if usage.prompt_tokens_details else None
    if cached is None or not 0 <= cached <= usage.prompt_tokens:
        return f"cached_tokens is not within the prompt's: {usage}"
    return None


def check(name, condition, why):
    print(f"PASS {name}" if condition else f"FAIL {name}: {why}", flush=True)


def run(name, body):
    """Runs one check; an exception fails it with its text instead of ending the client."""
    try:
        body(name)
    except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
        check(name, False, f"{type(error).__name__}: {error}")


def sources_problem(extension):
    """Why the `lantern` extension's sources are not items of the corpus, or None."""
    if not isinstance(extension, dict) or not isinstance(extension.get("sources"), list):
        return f"no lantern.sources list: {extension!r}"
    ids = [source.get("id") for source in extension["sources"]]
    if not ids:
        return "lantern.sources is empty (the first round always searches)"
    unknown = [source_id for source_id in ids if source_id not in corpus_ids]
    if unknown:
        return f"sources that are no corpus item: {unknown}"
    numbers = [source["citation"] for source in extension["sources"] if source.get("citation") is not None]
    if numbers != list(range(1, len(numbers) + 1)):
        return f"cited sources are not numbered 1, 2, ... first: {numbers}"
    return None


def refused(call, error_type, status):
    """Calls `call`, which must raise `error_type` with `status` and OpenAI's error body; returns why not, or None."""
    try:
        call()
    except error_type as error:
        body = error.response.json()
        if error.status_code != status:
            return f"status {error.status_code}, not {status}"
        if set(body.get("error", {})) != ERROR_KEYS:
            return f"the error body is not OpenAI's shape: {body}"
        return None
    return f"no {error_type.__name__} was raised"


def models_list(name):
    models = client.models.list().data
    check(name, len(models) == 1 and models[0].object == "model" and models[0].id, f"models: {models}")


def non_streamed(name):
    model = client.models.list().data[0].id
    completion = client.chat.completions.create(model=model, messages=QUESTION, max_tokens=48)
    choice = completion.choices[0] if completion.choices else None
    problem = (
        "not a chat.completion with one choice" if completion.object != "chat.completion" or len(completion.choices) != 1
        else "the answer is empty" if not (choice.message.content or "").strip()
        else f"role {choice.message.role}" if choice.message.role != "assistant"
        else f"finish_reason {choice.finish_reason!r}" if choice.finish_reason not in ("stop", "length")
        else usage_problem(completion.usage) or sources_problem((completion.model_extra or {}).get("lantern"))
    )
    check(name, problem is None, problem)


def streamed(name):
    model = client.models.list().data[0].id
    chunks = list(client.chat.completions.create(model=model, messages=QUESTION, max_tokens=48, stream=True,
                                                 stream_options={"include_usage": True}))
    with_choices = [chunk for chunk in chunks if chunk.choices]
    text = "".join(chunk.choices[0].delta.content or "" for chunk in with_choices)
    finished = [chunk for chunk in with_choices if chunk.choices[0].finish_reason]
    problem = (
        "a chunk is not a chat.completion.chunk" if any(chunk.object != "chat.completion.chunk" for chunk in chunks)
        else "the streamed answer is empty" if not text.strip()
        else f"{len(finished)} chunks have a finish_reason" if len(finished) != 1 or finished[0] is not with_choices[-1]
        else "no usage chunk at the end" if not chunks[-1].usage or chunks[-1].choices
        else usage_problem(chunks[-1].usage) or sources_problem((finished[0].model_extra or {}).get("lantern"))
    )
    check(name, problem is None, problem)


def bad_request(name):
    model = client.models.list().data[0].id
    problems = [
        refused(lambda: client.chat.completions.create(model=model, messages=[{"role": "system", "content": "no question"}]),
                openai.BadRequestError, 400),
        refused(lambda: client.chat.completions.create(model=model, messages="not a list"), openai.BadRequestError, 400),
        refused(lambda: client.chat.completions.create(model=model, messages=QUESTION, max_tokens=10**9), openai.BadRequestError, 400),
        refused(lambda: client.chat.completions.create(model="no-such-model", messages=QUESTION), openai.NotFoundError, 404),
    ]
    problems = [problem for problem in problems if problem]
    check(name, not problems, problems)


def wrong_key(name):
    stranger = openai.OpenAI(base_url=base_url, api_key=api_key + "-wrong", max_retries=0, timeout=60)
    problem = refused(lambda: stranger.models.list(), openai.AuthenticationError, 401)
    check(name, problem is None, problem)


def oversized_body(name):
    model = client.models.list().data[0].id
    huge = [{"role": "user", "content": "x" * (max_body_bytes + 1)}]
    problem = refused(lambda: client.chat.completions.create(model=model, messages=huge), openai.APIStatusError, 413)
    check(name, problem is None, problem)


def forced_call(model, stream=False, messages=None, tool_choice=None):
    """A request whose tool_choice names get_weather; returns (finish_reason, tool_calls, content, usage, lantern)."""
    arguments = dict(model=model, messages=messages or [{"role": "user", "content": "What is the weather at Vernal Fall this week?"}],
                     tools=[WEATHER, PICK], tool_choice=tool_choice or {"type": "function", "function": {"name": "get_weather"}},
                     max_tokens=64)
    if not stream:
        completion = client.chat.completions.create(**arguments)
        choice = completion.choices[0]
        return choice.finish_reason, choice.message.tool_calls or [], choice.message.content, completion.usage, (completion.model_extra or {}).get("lantern")
    chunks = list(client.chat.completions.create(**arguments, stream=True, stream_options={"include_usage": True}))
    calls, content, finish, lantern = {}, "", None, None
    for chunk in chunks:
        for choice in chunk.choices:
            content += choice.delta.content or ""
            for delta in choice.delta.tool_calls or []:
                call = calls.setdefault(delta.index, {"id": "", "name": "", "arguments": ""})
                call["id"] += delta.id or ""
                call["name"] += (delta.function.name or "") if delta.function else ""
                call["arguments"] += (delta.function.arguments or "") if delta.function else ""
            if choice.finish_reason:
                finish, lantern = choice.finish_reason, (chunk.model_extra or {}).get("lantern")
    as_objects = [type("Call", (), {"id": c["id"], "type": "function", "function": type("F", (), {"name": c["name"], "arguments": c["arguments"]})})
                  for _, c in sorted(calls.items())]
    return finish, as_objects, content or None, chunks[-1].usage, lantern


def forced_call_problem(result):
    finish, calls, content, usage, lantern = result
    if finish != "tool_calls":
        return f"finish_reason {finish!r}, not 'tool_calls'"
    if len(calls) != 1 or calls[0].function.name != "get_weather" or not calls[0].id:
        return f"not one get_weather call with an id: {[(c.id, c.function.name) for c in calls]}"
    return weather_problem(calls[0].function.arguments) or usage_problem(usage) or (
        None if isinstance(lantern, dict) else f"no lantern extension: {lantern!r}")


def client_tool_named(name):
    model = client.models.list().data[0].id
    result = forced_call(model)
    check(name, forced_call_problem(result) is None, forced_call_problem(result))


def client_tool_named_streamed(name):
    model = client.models.list().data[0].id
    result = forced_call(model, stream=True)
    check(name, forced_call_problem(result) is None, forced_call_problem(result))


def client_tool_required(name):
    model = client.models.list().data[0].id
    finish, calls, _, usage, _ = forced_call(model, tool_choice="required")
    names = [call.function.name for call in calls]
    problem = (f"finish_reason {finish!r}, not 'tool_calls'" if finish != "tool_calls"
               else f"not one call of a request's function: {names}" if len(names) != 1 or names[0] not in ("get_weather", "pick_trail")
               else usage_problem(usage))
    check(name, problem is None, problem)


def tool_result_follow_up(name):
    """The assistant's call and the tool's result go back; with tool_choice none the reply is an answer."""
    model = client.models.list().data[0].id
    question = [{"role": "user", "content": "What is the weather at Vernal Fall this week?"}]
    _, calls, _, _, _ = forced_call(model, messages=question)
    call = calls[0]
    messages = question + [
        {"role": "assistant", "content": None, "tool_calls": [{"id": call.id, "type": "function",
                                                                "function": {"name": call.function.name, "arguments": call.function.arguments}}]},
        {"role": "tool", "tool_call_id": call.id, "content": "Sunny all week, 21 degrees."}]
    problems = []
    for stream in (False, True):
        if stream:
            chunks = list(client.chat.completions.create(model=model, messages=messages, tools=[WEATHER, PICK], tool_choice="none",
                                                         max_tokens=48, stream=True, stream_options={"include_usage": True}))
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
            calls_sent = [d for c in chunks if c.choices for d in (c.choices[0].delta.tool_calls or [])]
            usage = chunks[-1].usage
            finish = finish[0] if len(finish) == 1 else f"{finish}"
        else:
            completion = client.chat.completions.create(model=model, messages=messages, tools=[WEATHER, PICK], tool_choice="none", max_tokens=48)
            text, finish, usage = completion.choices[0].message.content or "", completion.choices[0].finish_reason, completion.usage
            calls_sent = completion.choices[0].message.tool_calls or []
        problem = (f"finish_reason {finish!r}" if finish not in ("stop", "length")
                   else f"tool calls despite tool_choice none: {calls_sent}" if calls_sent
                   else "the answer is empty" if not text.strip()
                   else usage_problem(usage))
        if problem:
            problems.append(f"{'streamed' if stream else 'whole'}: {problem}")
    check(name, not problems, problems)


def tool_refusals(name):
    model = client.models.list().data[0].id
    question = [{"role": "user", "content": "Weather?"}]
    unsupported = {"type": "function", "function": {"name": "odd", "parameters": {"type": "object", "properties": {"x": {"not": {"type": "string"}}}}}}

    def param_refused(call, param):
        try:
            call()
        except openai.BadRequestError as error:
            body = error.response.json().get("error", {})
            if set(body) != ERROR_KEYS:
                return f"the error body is not OpenAI's shape: {body}"
            return None if body.get("param") == param else f"param {body.get('param')!r}, not {param!r}: {body.get('message')}"
        return f"no BadRequestError for {param}"

    problems = [
        param_refused(lambda: client.chat.completions.create(model=model, messages=question, tools=[WEATHER],
                                                             tool_choice={"type": "function", "function": {"name": "nope"}}), "tool_choice"),
        param_refused(lambda: client.chat.completions.create(model=model, messages=question, tool_choice="required"), "tool_choice"),
        param_refused(lambda: client.chat.completions.create(model=model, messages=question, tools=[unsupported]), "tools[0].function.parameters"),
        param_refused(lambda: client.chat.completions.create(model=model, messages=question + [{"role": "tool", "tool_call_id": "x", "content": "?"}]),
                      "messages[1].tool_call_id"),
        param_refused(lambda: client.chat.completions.create(model=model, messages=[
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "user", "content": "Well?"}], tools=[WEATHER]), "messages[2]"),
        param_refused(lambda: client.chat.completions.create(model=model, messages=[
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{not json"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"}], tools=[WEATHER]), "messages[1].tool_calls[0].function.arguments"),
    ]
    problems = [problem for problem in problems if problem]
    check(name, not problems, problems)


def conversation(name):
    """Earlier turns and a system message; the answer is a normal completion."""
    model = client.models.list().data[0].id
    messages = [{"role": "system", "content": "Answer in one sentence."},
                {"role": "user", "content": "Which trail had a waterfall?"},
                {"role": "assistant", "content": "The Mist Trail passes Vernal Fall [1]."},
                {"role": "user", "content": "Was there drinking water on that trail?"}]
    completion = client.chat.completions.create(model=model, messages=messages, max_tokens=48)
    choice = completion.choices[0]
    problem = (f"finish_reason {choice.finish_reason!r}" if choice.finish_reason not in ("stop", "length")
               else "the answer is empty" if not (choice.message.content or "").strip()
               else usage_problem(completion.usage) or sources_problem((completion.model_extra or {}).get("lantern")))
    check(name, problem is None, problem)


def conversation_overflow(name):
    """Earlier turns that cannot fit the window: a 400 naming the turn that filled it, not a crash or a silent cut."""
    model = client.models.list().data[0].id
    long_turn = " ".join(f"The trail log entry {n} says the path was dusty and long." for n in range(2000))
    messages = [{"role": "user", "content": "Tell me everything."}, {"role": "assistant", "content": long_turn},
                {"role": "user", "content": "Which trail had a waterfall?"}]
    try:
        client.chat.completions.create(model=model, messages=messages, max_tokens=16)
        check(name, False, "an overflowing conversation was answered")
        return
    except openai.BadRequestError as error:
        body = error.response.json().get("error", {})
        problem = (f"code {body.get('code')!r}" if body.get("code") != "context_length_exceeded"
                   else f"the message does not name messages[1]: {body.get('message')}" if "messages[1]" not in (body.get("message") or "")
                   else None)
        check(name, problem is None, problem)


def finish_length(name):
    """A one-token cap cuts every round that may answer: the reply ends by length, and usage adds up."""
    model = client.models.list().data[0].id
    problems = []
    completion = client.chat.completions.create(model=model, messages=QUESTION, max_tokens=1)
    if completion.choices[0].finish_reason != "length":
        problems.append(f"whole: finish_reason {completion.choices[0].finish_reason!r}")
    if usage_problem(completion.usage):
        problems.append(f"whole: {usage_problem(completion.usage)}")
    chunks = list(client.chat.completions.create(model=model, messages=QUESTION, max_tokens=1, stream=True, stream_options={"include_usage": True}))
    finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    if finish != ["length"]:
        problems.append(f"streamed: finish_reasons {finish}")
    if usage_problem(chunks[-1].usage):
        problems.append(f"streamed: {usage_problem(chunks[-1].usage)}")
    check(name, not problems, problems)


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def corpus_values():
    """Every word of the corpus's short string attributes and keywords: search terms any question may use."""
    values = set()
    with open(corpus_path) as corpus:
        for line in corpus:
            if not line.strip():
                continue
            for value in json.loads(line).get("attributes", {}).values():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str) and len(item) <= 40:
                        values |= words(item)
    return values


def strings_in(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings_in(item)]
    return []


CONCURRENT_QUESTIONS = ["Which trail had a waterfall?", "Where did we see desert wildflowers blooming?",
                        "Which hike climbed to a summit above the ocean?"]


def concurrent_clients(name):
    """Three clients at once (two answering, one waiting): each gets its own answer. Search terms are
    bound by the grammar to the asking question's words (and the index's values), so a term that only
    another client's question holds would mean the sessions crossed."""
    model = client.models.list().data[0].id
    shared = corpus_values()
    results, barrier = [None] * len(CONCURRENT_QUESTIONS), threading.Barrier(len(CONCURRENT_QUESTIONS))

    def ask(index):
        own = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=900)
        barrier.wait()
        try:
            results[index] = own.chat.completions.create(model=model, messages=[{"role": "user", "content": CONCURRENT_QUESTIONS[index]}], max_tokens=48)
        except Exception as error:  # noqa: BLE001 - reported below
            results[index] = error

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(len(CONCURRENT_QUESTIONS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    problems = []
    for index, result in enumerate(results):
        if isinstance(result, Exception):
            problems.append(f"client {index}: {type(result).__name__}: {result}")
            continue
        others = set().union(*(words(q) for j, q in enumerate(CONCURRENT_QUESTIONS) if j != index)) - words(CONCURRENT_QUESTIONS[index]) - shared
        trace = (result.model_extra or {}).get("lantern", {}).get("trace", [])
        searched = {word for step in trace if step.get("tool") == "spotlight_search" for s in strings_in(step.get("arguments")) for word in words(s)}
        crossed = searched & others
        if crossed:
            problems.append(f"client {index} searched another client's words {sorted(crossed)}")
        if not trace or trace[0].get("tool") != "spotlight_search":
            problems.append(f"client {index}: the first step is no search: {trace[:1]}")
        problem = usage_problem(result.usage) or sources_problem((result.model_extra or {}).get("lantern"))
        if problem:
            problems.append(f"client {index}: {problem}")
    ids = [result.id for result in results if not isinstance(result, Exception)]
    if len(set(ids)) != len(ids):
        problems.append(f"completion ids repeat: {ids}")
    check(name, not problems, problems)


def queue_full(name):
    """Six clients at once against two answering and one waiting: the others are refused at once
    with 429 in OpenAI's shape (the first three take seconds, the six arrive within milliseconds).
    Each asks for a call of its function, one round, the cheapest answer that holds a place."""
    model = client.models.list().data[0].id
    count = 6
    outcomes, barrier = [None] * count, threading.Barrier(count)

    def ask(index):
        own = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=900)
        barrier.wait()
        try:
            outcomes[index] = own.chat.completions.create(model=model, messages=QUESTION[1:], tools=[WEATHER, PICK], max_tokens=16,
                                                          tool_choice={"type": "function", "function": {"name": "pick_trail"}})
        except Exception as error:  # noqa: BLE001 - sorted below
            outcomes[index] = error

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [o for o in outcomes if isinstance(o, openai.RateLimitError)]
    answered = [o for o in outcomes if not isinstance(o, Exception)]
    others = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, Exception) and not isinstance(o, openai.RateLimitError)]
    shapes = [o.response.json() for o in refused]
    problem = (f"unexpected failures: {others}" if others
               else f"{len(refused)} refused and {len(answered)} answered; expected at least one of each" if not refused or not answered
               else f"a 429 is not in OpenAI's shape: {shapes}" if any(set(s.get("error", {})) != ERROR_KEYS or s["error"].get("code") != "server_busy" for s in shapes)
               else None)
    check(name, problem is None, problem)


CHECKS = [("models.list", models_list), ("chat completion", non_streamed), ("streamed chat completion", streamed),
          ("bad request", bad_request), ("wrong key", wrong_key), ("oversized body", oversized_body),
          ("client tool named", client_tool_named), ("client tool named streamed", client_tool_named_streamed),
          ("client tool required", client_tool_required), ("tool result follow-up", tool_result_follow_up),
          ("tool refusals", tool_refusals), ("conversation", conversation), ("conversation overflow", conversation_overflow),
          ("finish length", finish_length), ("concurrent clients", concurrent_clients), ("queue full", queue_full)]
only = set(sys.argv[5:])
for check_name, check_body in CHECKS:
    if not only or check_name in only:
        run(check_name, check_body)
