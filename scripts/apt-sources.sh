#!/usr/bin/env bash
# Reads a machine's apt sources and says where its Debian packages come from, so setup can add
# Debian unstable from the same mirror, with the same key, in the same form.
#
#   scripts/apt-sources.sh debian-mirror [--root DIR]
#       prints one line, tab-separated: FORM URI KEYRING
#       FORM is deb822 when the Debian source is a .sources file, one-line when it is a .list
#       line; KEYRING is the source's Signed-By file, or empty when it names none (or embeds
#       the key). Exit 1, with the files it read, when no source is Debian's.
#   scripts/apt-sources.sh unstable-source FORM URI KEYRING
#       prints the unstable source to write, in that form
#
# --root reads DIR/etc/apt instead of /etc/apt (the tests use fixture folders). Both apt
# layouts are read: /etc/apt/sources.list, sources.list.d/*.list (one-line) and
# sources.list.d/*.sources (deb822), in apt's order; a missing file or an empty folder is
# fine. A Debian source is an enabled `deb` source with one of Debian's suites (see
# debian_suites); security mirrors and Lantern's own unstable source are not.
set -euo pipefail
shopt -s nullglob

usage() { sed -n 2,18p "$0" >&2; exit 2; }

# The suites that mark a source as Debian's own: the machine's release (VERSION_CODENAME of
# etc/os-release, which setup itself moves to unstable's name when libc6 comes from there) and
# every Debian release name, each with its -updates and -backports.
debian_suites() { # $1 root
  local codename="" name
  if [ -r "$1/etc/os-release" ]; then
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$1/etc/os-release" | tr -d '"')
  fi
  for name in $codename buster bullseye bookworm trixie forky duke oldstable stable testing; do
    printf '%s %s-updates %s-backports ' "$name" "$name" "$name"
  done
  echo unstable sid
}

# The source files apt reads, in its order, Lantern's own left out.
source_files() { # $1 root
  local apt=$1/etc/apt file
  [ ! -f "$apt/sources.list" ] || echo "$apt/sources.list"
  for file in "$apt"/sources.list.d/*.list "$apt"/sources.list.d/*.sources; do
    case "$file" in */lantern-unstable.*) continue ;; esac
    echo "$file"
  done
}

# Prints FORM URI KEYRING for every Debian source in the files given, first one first.
debian_sources_in() { # $1 suites, then the files
  local suites=$1 file
  shift
  for file in "$@"; do
    case "$file" in
    *.sources)
      # deb822: stanzas split by blank lines; `#` lines are comments; a line that starts
      # with a space continues the field before it (an embedded key, a long list)
      awk -v suites="$suites" '
        function reset() { types = ""; uris = ""; found = ""; keyring = ""; enabled = "yes"; embedded = 0; field = "" }
        function flush(   n, u, s, i) {
          if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no" && uris != "" && found != "") {
            n = split(uris, u, /[ \t]+/)
            print "deb822\t" u[1] "\t" (embedded ? "" : keyring)
          }
          reset()
        }
        function value(line) { sub(/^[^:]*:[ \t]*/, "", line); sub(/[ \t]+$/, "", line); return line }
        BEGIN { n = split(suites, wanted, " "); for (i = 1; i <= n; i++) known[wanted[i]] = 1; reset() }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        /^[ \t]/ { if (field == "signed-by") embedded = 1; next }
        {
          field = tolower($0); sub(/:.*/, "", field)
          if (field == "types") types = value($0)
          else if (field == "uris") uris = value($0)
          else if (field == "enabled") enabled = value($0)
          else if (field == "signed-by") { keyring = value($0); if (keyring == "") embedded = 1 }
          else if (field == "suites") {
            m = split(value($0), listed, /[ \t]+/)
            for (i = 1; i <= m; i++) if (listed[i] in known) found = listed[i]
          }
        }
        END { flush() }' "$file"
      ;;
    *)
      # one-line: deb [option=value ...] URI SUITE COMPONENT...
      awk -v suites="$suites" '
        BEGIN { n = split(suites, wanted, " "); for (i = 1; i <= n; i++) known[wanted[i]] = 1 }
        $1 != "deb" { next }
        {
          line = $0; keyring = ""
          if (match(line, /\[[^]]*\]/)) {
            options = substr(line, RSTART + 1, RLENGTH - 2)
            line = substr(line, 1, RSTART - 1) " " substr(line, RSTART + RLENGTH)
            m = split(options, option, /[ \t]+/)
            for (i = 1; i <= m; i++) if (option[i] ~ /^signed-by=/) { keyring = option[i]; sub(/^signed-by=/, "", keyring) }
          }
          split(line, word, /[ \t]+/)
          if (word[3] in known) print "one-line\t" word[2] "\t" keyring
        }' "$file"
      ;;
    esac
  done
}

debian_mirror() { # [--root DIR]
  local root=""
  case "${1:-}" in
    --root) root=${2:?--root needs a folder}; shift 2 ;;
    "") ;;
    *) usage ;;
  esac
  local files=() file found
  while IFS= read -r file; do files+=("$file"); done < <(source_files "$root")
  found=$(debian_sources_in "$(debian_suites "$root")" "${files[@]}" | grep -v -- '-security' | head -n 1 || true)
  if [ -z "$found" ]; then
    if [ ${#files[@]} -eq 0 ]; then
      echo "apt-sources: no apt source files in $root/etc/apt (sources.list, sources.list.d/*.list, *.sources); add your Debian mirror there and run again" >&2
    else
      echo "apt-sources: none of these apt sources is a Debian mirror for this release: ${files[*]}; add your Debian mirror and run again" >&2
    fi
    exit 1
  fi
  echo "$found"
}

unstable_source() { # FORM URI KEYRING
  local form=${1:?} uri=${2:?} keyring=${3:-}
  case "$form" in
  deb822)
    printf 'Types: deb\nURIs: %s\nSuites: unstable\nComponents: main\n' "$uri"
    [ -z "$keyring" ] || printf 'Signed-By: %s\n' "$keyring"
    # unstable's Release file can be past its validity date on a mirror; accept it
    printf 'Check-Valid-Until: no\n'
    ;;
  one-line)
    printf 'deb [check-valid-until=no%s] %s unstable main\n' "${keyring:+ signed-by=$keyring}" "$uri"
    ;;
  *) echo "apt-sources: unknown form '$form' (deb822 or one-line)" >&2; exit 2 ;;
  esac
}

case "${1:-}" in
  debian-mirror) shift; debian_mirror "$@" ;;
  unstable-source) shift; unstable_source "$@" ;;
  *) usage ;;
esac
