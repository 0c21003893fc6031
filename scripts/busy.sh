#!/usr/bin/env bash
# Keeps the machine busy for "green under load" runs (issue 24 item 2): `start` launches 3 CPU-bound
# processes (BUSY_PROCESSES to change), `stop` ends exactly those (their ids are kept in a pid file).
#   bash scripts/busy.sh start && npm test; bash scripts/busy.sh stop
set -euo pipefail
PIDFILE="${BUSY_PIDFILE:-${TMPDIR:-/tmp}/pix-account-service-busy.pids}"
case "${1:-}" in
  start)
    if [ -s "$PIDFILE" ]; then echo "already running: $(tr '\n' ' ' <"$PIDFILE") (scripts/busy.sh stop first)" >&2; exit 1; fi
    for _ in $(seq 1 "${BUSY_PROCESSES:-3}"); do
      node -e 'for (;;) Math.sqrt(Math.random());' &
      echo $! >>"$PIDFILE"
    done
    echo "busy: $(tr '\n' ' ' <"$PIDFILE")($(uptime | sed 's/.*load average/load average/'))"
    ;;
  stop)
    [ -f "$PIDFILE" ] || { echo "not running"; exit 0; }
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$PIDFILE"
    rm -f "$PIDFILE"
    echo "busy processes stopped"
    ;;
  *) echo "usage: scripts/busy.sh start|stop" >&2; exit 2 ;;
esac
