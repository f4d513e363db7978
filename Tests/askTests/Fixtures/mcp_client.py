"""An MCP client for `ask mcp`, with the real `mcp` SDK: starts the server, checks what the
suite's MCPServerTests names, and prints one line per check, `PASS name` or `FAIL name: why`.

    python mcp_client.py ASK_BINARY CORPUS.jsonl

The server's index is named after the corpus file, under $XDG_DATA_HOME/lantern/indexes/. While
this client holds that index's writer lock the server cannot build it, so a tool call waits
for it however fast the machine is: that is the call the cancellation check cancels. Nothing
here measures time; the deadline only turns a hang into a failure.
"""

import fcntl
import json
import os
import subprocess
import sys
import tempfile
import threading

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import MCPError
except ImportError as error:  # the suite's test turns this into its message
    print(f"FAIL setup: the mcp Python SDK is not installed ({error}); run scripts/setup.sh")
    sys.exit(3)

HANG_DEADLINE = 600  # seconds; a server that never answers fails instead of hanging the suite
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


async def sdk_checks(ask, corpus, log_path):
    with anyio.fail_after(HANG_DEADLINE):
        await sdk_session(ask, corpus, log_path)


async def sdk_session(ask, corpus, log_path):
    index_name = os.path.splitext(os.path.basename(corpus))[0]
    indexes = os.path.join(os.environ["XDG_DATA_HOME"], "lantern", "indexes")
    os.makedirs(indexes, exist_ok=True)
    lock = open(os.path.join(indexes, index_name + ".sqlite.lock"), "a+")
    fcntl.flock(lock, fcntl.LOCK_EX)
    server = StdioServerParameters(command=ask, args=["mcp", "--corpus", corpus], env=dict(os.environ))
    with open(log_path, "w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            initialized = await session.initialize()
            check("initialize", initialized.server_info.name == "lantern" and initialized.capabilities.tools is not None,
                  f"server info {initialized.server_info}, capabilities {initialized.capabilities}")

            # A call in flight while the index cannot be built, then cancelled.
            scope = anyio.CancelScope()
            outcome = {}

            async def doomed_call():
                with scope:
                    outcome["result"] = await session.call_tool("spotlight_search", {"query": {"terms": ["trail"]}})

            async with anyio.create_task_group() as group:
                group.start_soon(doomed_call)
                await wait_for_log(log_path, "(tools/call) waits for the index to open")
                scope.cancel()
            await wait_for_log(log_path, "(tools/call) was cancelled; it gets no response")
            check("cancelled call", "result" not in outcome and scope.cancelled_caught,
                  f"the cancelled call returned {outcome.get('result')}")
            fcntl.flock(lock, fcntl.LOCK_UN)
            lock.close()

            listed = {tool.name: tool for tool in (await session.list_tools()).tools}
            search, fetch = listed.get("spotlight_search"), listed.get("fetch_item")
            check("tools/list", set(listed) == {"spotlight_search", "fetch_item"}
                  and search.input_schema.get("type") == "object" and "query" in search.input_schema.get("properties", {})
                  and fetch.input_schema.get("required") == ["id"]
                  and len(search.description) > 100 and search.output_schema and fetch.output_schema,
                  f"tools {json.dumps({name: tool.model_dump(mode='json') for name, tool in listed.items()})[:2000]}")

            # The SDK checks structuredContent against the outputSchema from the listing above.
            found = await session.call_tool("spotlight_search", {"query": {"terms": ["delicate", "arch"]}})
            items = (found.structured_content or {}).get("items", [])
            ids = [item["id"] for item in items]
            check("search", not found.is_error and "trail-011" in ids and "trail-011" in text_of(found)
                  and found.structured_content["resultCount"] >= len(items) > 0,
                  f"result {found.model_dump(mode='json')}")

            read_back = await session.call_tool("fetch_item", {"id": "trail-011"})
            fetched = read_back.structured_content or {}
            check("fetch", not read_back.is_error and fetched.get("id") == "trail-011"
                  and fetched.get("attributes", {}).get("title") == "Delicate Arch Trail"
                  and len(fetched.get("text", "")) > 0 and fetched["text"][:40] in text_of(read_back),
                  f"result {read_back.model_dump(mode='json')}")

            wrong = await session.call_tool("spotlight_search", {"query": "delicate arch"})
            check("bad argument", wrong.is_error and "arguments.query" in text_of(wrong) and not wrong.structured_content,
                  f"result {wrong.model_dump(mode='json')}")

            unknown = await session.call_tool("fetch_item", {"id": "trail-999"})
            check("unknown id", unknown.is_error and "trail-999" in text_of(unknown),
                  f"result {unknown.model_dump(mode='json')}")

            try:
                await session.call_tool("no_such_tool", {})
                check("unknown tool", False, "the call returned instead of failing")
            except MCPError as error:
                check("unknown tool", error.error.code == -32602 and "no_such_tool" in error.error.message,
                      f"error {error.error}")

            await session.send_ping()
            check("ping after everything", True, "")


def raw_checks(ask, corpus):
    """What no SDK sends: lines that are not JSON, batches, unknown methods, requests before
    initialize. Each must get its JSON-RPC error and leave the server serving."""
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
    ]
    process = subprocess.Popen([ask, "mcp", "--corpus", corpus], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = threading.Timer(HANG_DEADLINE, process.kill)
    deadline.daemon = True
    deadline.start()
    process.stdin.write("\n".join(lines) + "\n")
    process.stdin.flush()
    responses, nulls = {}, []
    while len(responses) < 6 or len(nulls) < 2:
        line = process.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        (nulls.append(message) if message.get("id") is None else responses.__setitem__(message["id"], message))
    process.stdin.close()
    status = process.wait(timeout=HANG_DEADLINE)
    deadline.cancel()

    def code(message):
        return (message or {}).get("error", {}).get("code")

    check("raw: not JSON and a batch", sorted(code(m) for m in nulls) == [-32700, -32600], f"responses with a null id: {nulls}")
    # Neither a revision in _meta nor initialize: 2026-07-28 calls that malformed (-32602).
    check("raw: tools/list before initialize", code(responses.get(1)) == -32602, f"response {responses.get(1)}")
    check("raw: an unknown revision gets the newest", (responses.get(2) or {}).get("result", {}).get("protocolVersion") == "2025-11-25",
          f"response {responses.get(2)}")
    check("raw: unknown method", code(responses.get(3)) == -32601 and "no/such/method" in responses[3]["error"]["message"],
          f"response {responses.get(3)}")
    check("raw: tools/call without a name", code(responses.get(4)) == -32602 and "name" in responses[4]["error"]["message"],
          f"response {responses.get(4)}")
    check("raw: arguments not an object", code(responses.get(5)) == -32602 and "arguments" in responses[5]["error"]["message"],
          f"response {responses.get(5)}")
    check("raw: ping with a string id", (responses.get("six") or {}).get("result") == {}, f"response {responses.get('six')}")
    check("raw: exits 0 when stdin closes", status == 0, f"exit status {status}")


def main():
    ask, corpus = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as folder:
        log_path = os.path.join(folder, "server-stderr.log")
        try:
            anyio.run(sdk_checks, ask, corpus, log_path)
        except Exception as error:
            with open(log_path) as log:
                check("sdk session", False, f"{type(error).__name__}: {error}; server stderr:\n{log.read()[-3000:]}")
    raw_checks(ask, corpus)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
