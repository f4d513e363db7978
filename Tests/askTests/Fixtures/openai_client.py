"""An OpenAI API client for `ask serve`, with the real `openai` Python library: checks what the
suite's OpenAIServerTests names against a server the test started, and prints one line per
check, `PASS name` or `FAIL name: why`.

    python openai_client.py BASE_URL API_KEY CORPUS.jsonl MAX_BODY_BYTES

The checks are about what the server guarantees (the shapes, a non-empty answer, sources that
are items of the corpus, each refusal's status and error body), never about what the model
chooses to say. Retries are off, so a refusal is seen as sent.
"""

import json
import sys

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
        else "no usage" if not completion.usage or completion.usage.total_tokens <= 0
        else sources_problem((completion.model_extra or {}).get("lantern"))
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
        else sources_problem((finished[0].model_extra or {}).get("lantern"))
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


for check_name, check_body in [("models.list", models_list), ("chat completion", non_streamed), ("streamed chat completion", streamed),
                               ("bad request", bad_request), ("wrong key", wrong_key), ("oversized body", oversized_body)]:
    run(check_name, check_body)
