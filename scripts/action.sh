#!/usr/bin/env bash
# The step the GitHub Action (action.yml) runs: validate decklists, write the Markdown summary
# to $GITHUB_STEP_SUMMARY, annotations to the log (`-o github`), and a report file if asked;
# exit as `sengoku validate` does (0 valid, 1 a deck breaks a rule, 2 unusable input), so
# errors fail the job. Runs anywhere with bash; without $GITHUB_STEP_SUMMARY the summary is
# left out.
#
# Inputs arrive as environment variables, never pasted into the script text (a path is data):
#   SENGOKU_PATHS   decklist files or folders: one per line, or separated by spaces (default: .)
#   SENGOKU_FORMAT  tournament format for every decklist (empty: each decklist's own)
#   SENGOKU_STRICT  true: warnings fail too (default false)
#   SENGOKU_OUTPUT  also write a report to this file, its kind from the extension: .json,
#                   .sarif, .xml (JUnit), .md (Markdown), .html (registration sheets)
#   SENGOKU         the sengoku command (default: sengoku on PATH)
set -uo pipefail

sengoku=${SENGOKU:-sengoku}
strict=${SENGOKU_STRICT:-false}
output=${SENGOKU_OUTPUT:-}
summary=${GITHUB_STEP_SUMMARY:-}

fail_usage() {
  echo "error: $1" >&2
  if [[ -n $summary ]]; then
    printf '## sengoku validate\n\nThe action could not run: %s\n' "$1" >>"$summary"
  fi
  exit 2
}

# Paths: one per line when there are several lines (names may hold spaces), else split on spaces.
paths=()
if [[ ${SENGOKU_PATHS:-} == *$'\n'* ]]; then
  while IFS= read -r line; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [[ -n $line ]] && paths+=("$line")
  done <<<"$SENGOKU_PATHS"
else
  read -r -a paths <<<"${SENGOKU_PATHS:-}"  # `read -a` splits without expanding wildcards
fi
[[ ${#paths[@]} -gt 0 ]] || paths=(.)

options=()
[[ -n ${SENGOKU_FORMAT:-} ]] && options+=(--format "$SENGOKU_FORMAT")
case $strict in
  true) options+=(--strict) ;;
  false | "") ;;
  *) fail_usage "strict must be true or false, not '$strict'" ;;
esac

kind=""
if [[ -n $output ]]; then
  case ${output,,} in
    *.json) kind=json ;;
    *.sarif) kind=sarif ;;
    *.xml) kind=junit ;;
    *.md | *.markdown) kind=markdown ;;
    *.html | *.htm) kind=html ;;
    *) fail_usage "output '$output' must end in .json, .sarif, .xml, .md or .html" ;;
  esac
fi

validate() {  # validate OPTION... : one run over every path
  "$sengoku" validate "${options[@]}" "$@" -- "${paths[@]}"
}

status=0
keep() { (($1 > status)) && status=$1; return 0; }

# 1. The summary table. A run that could not start (exit 2, nothing on stdout) says why, in an
#    indented block: a message quoting a stranger's file name cannot become markup there.
if [[ -n $summary ]]; then
  md=$(mktemp) err=$(mktemp)
  validate -o markdown >"$md" 2>"$err"
  code=$?
  keep $code  # its stderr says what the annotations run below says again, in the log
  if [[ -s $md ]]; then
    cat "$md" >>"$summary"
  else
    { printf '## sengoku validate\n\n`sengoku validate` stopped (exit %d):\n\n' "$code"; sed 's/^/    /' "$err"; } >>"$summary"
  fi
  rm -f "$md" "$err"
fi

# 2. Annotations on the files, in the log.
validate -o github
keep $?

# 3. The report file, written whole: to a temporary file beside it, then moved into place.
if [[ $kind == html ]]; then
  validate -o text --html "$output" --force >/dev/null 2>&1
  keep $?
elif [[ -n $kind ]]; then
  tmp=$(mktemp "$(dirname -- "$output")/.sengoku-report.XXXXXX") || fail_usage "cannot write $output"
  validate -o "$kind" >"$tmp" 2>/dev/null
  keep $?
  chmod "$(printf '%o' $((0666 & ~$(umask))))" "$tmp"  # mktemp makes it 0600; a report follows the umask
  mv -f -- "$tmp" "$output" || keep 2
fi

exit "$status"
