#!/usr/bin/env bash
# Checks that the tools a developer machine relies on still work: setup runs it last, since
# packages from Debian unstable can break what was there (bookworm's ssh refuses unstable's
# OpenSSL). Each tool present is run once; a missing one is skipped. Exit 1, naming each tool
# that fails and what to run, when one does.
set -uo pipefail

say() { printf 'setup: %s\n' "$*" >&2; }
failed=()

check() { # <tool> <what to run if it fails> <command...>
  local tool=$1 fix=$2 output
  shift 2
  command -v "$tool" >/dev/null 2>&1 || return 0
  if ! output=$("$@" 2>&1 </dev/null); then
    say "$tool does not work after setup ('$*' failed: $(head -n 1 <<<"$output")); run: $fix"
    failed+=("$tool")
  fi
}

# sshd has no flag that only prints its version; any run of it makes the OpenSSL check.
sshd_starts() { ! { sshd -V 2>&1 || true; } | grep -q 'OpenSSL version mismatch'; }

check ssh "apt-get install -t unstable openssh-client" ssh -V
check sshd "apt-get install -t unstable openssh-server" sshd_starts
check git "apt-get install --reinstall git" git --version
check curl "apt-get install -t unstable curl" curl --version
check python3 "apt-get install -t unstable libssl3t64 (python3's ssl module needs it)" python3 -c 'import ssl'
check /usr/bin/python3 "apt-get install -t unstable libssl3t64 (python3's ssl module needs it)" /usr/bin/python3 -c 'import ssl'
check pip "python3 -m ensurepip --upgrade" python3 -m pip --version
check apt-get "apt-get -f install" apt-get check

if [ ${#failed[@]} -gt 0 ]; then
  say "after setup, ${failed[*]} failed the check above"
  exit 1
fi
say "checked: ssh, git, curl, python3 ssl, pip and apt work"
