#!/usr/bin/env bash
# The Action's bench-and-check step (action.yml), also runnable by hand. Inputs come from the
# environment: COMPSIM_SUITE, COMPSIM_BASELINE, COMPSIM_FAIL (one expression per line),
# COMPSIM_COMPACTOR, COMPSIM_STRATEGY, COMPSIM_JOBS, COMPSIM_INCONCLUSIVE (fail | pass),
# COMPSIM_OUT; GITHUB_STEP_SUMMARY and GITHUB_OUTPUT when GitHub sets them.
# Exit: compsim check's code (0 pass, 1 regressed, 3 inconclusive unless "pass"); 2 on bad
# input, before any check; 1 when the bench had errored trials, whatever the check said.
set -uo pipefail

suite="${COMPSIM_SUITE:?COMPSIM_SUITE: the suite file}"
baseline="${COMPSIM_BASELINE:?COMPSIM_BASELINE: the baseline file}"
out="${COMPSIM_OUT:-${RUNNER_TEMP:-/tmp}/compsim-run}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
case "${COMPSIM_INCONCLUSIVE:-fail}" in
  fail|pass) ;;
  *) echo "compsim: error: inconclusive=${COMPSIM_INCONCLUSIVE}: expected fail or pass" >&2; exit 2 ;;
esac

bench=(compsim bench --suite "$suite" --out "$out" --jobs "${COMPSIM_JOBS:-2}" --force --no-progress)
[ -n "${COMPSIM_COMPACTOR:-}" ] && bench+=(--compactor "$COMPSIM_COMPACTOR")
[ -n "${COMPSIM_STRATEGY:-}" ] && bench+=(--strategy "$COMPSIM_STRATEGY")
echo "run-dir=$out" >> "$outputs"
"${bench[@]}"
bench_code=$?
if [ "$bench_code" -ne 0 ] && [ "$bench_code" -ne 1 ]; then
  echo "exit-code=$bench_code" >> "$outputs"
  exit "$bench_code"
fi

check=(compsim check "$out" --baseline "$baseline" --format markdown)
while IFS= read -r expr; do
  expr="${expr#"${expr%%[![:space:]]*}"}"
  expr="${expr%"${expr##*[![:space:]]}"}"
  [ -n "$expr" ] && check+=(--fail "$expr")
done <<< "${COMPSIM_FAIL:-}"
"${check[@]}" > "$out/check.md"
code=$?
cat "$out/check.md"
cat "$out/check.md" >> "$summary"
echo "exit-code=$code" >> "$outputs"
if [ "$code" -eq 3 ] && [ "${COMPSIM_INCONCLUSIVE:-fail}" = "pass" ]; then
  echo "compsim: warning: the check was inconclusive; passing as asked (inconclusive: pass)" >&2
  code=0
fi
if [ "$bench_code" -eq 1 ] && [ "$code" -eq 0 ]; then
  echo "compsim: error: the bench had errored trials (see $out)" >&2
  code=1
fi
exit "$code"
