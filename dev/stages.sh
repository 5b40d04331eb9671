# Sourced by dev/build.sh and dev/test.sh (after STAGES=N): `stage NAME` says which stage of the
# script runs now and how long the one before took, so that a long stage (a pip install, the test
# suite) is not mistaken for a hang; at the end, the total, or the stage that failed.
STAGE_NUMBER=0
STAGE_NAME=""
STAGE_STARTED=$SECONDS

stage() {
  if [ "$STAGE_NUMBER" -gt 0 ]; then
    echo "    (done in $((SECONDS - STAGE_STARTED)) s)"
  fi
  STAGE_NUMBER=$((STAGE_NUMBER + 1))
  STAGE_NAME=$1
  STAGE_STARTED=$SECONDS
  echo "==> [$STAGE_NUMBER/$STAGES] $1"
}

stages_end() {
  local status=$?
  if [ "$status" -eq 0 ]; then
    echo "    (done in $((SECONDS - STAGE_STARTED)) s)"
    echo "==> all $STAGES stages done in $SECONDS s"
  else
    echo "==> stage $STAGE_NUMBER/$STAGES failed (exit status $status) after $((SECONDS - STAGE_STARTED)) s: $STAGE_NAME" >&2
  fi
}

trap stages_end EXIT
