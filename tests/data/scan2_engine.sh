#!/usr/bin/env bash
# An engine speaking Scan 2.0's first Hub protocol that misbehaves when asked
# to search (for the referee's tests): `illegal` answers a move no position
# allows, `silent` never answers, `crash` dies.
mode=${1:?usage: scan2_engine.sh illegal|silent|crash}
echo "Scan-like test engine ($mode)"
while read -r line; do
    case "$line" in
        hub) echo "name $mode-scan2"; echo "author tempo's tests"; echo "wait" ;;
        init) echo "ready" ;;
        ping) echo "pong" ;;
        go*)
            case "$mode" in
                illegal) echo "info 1 1.0 0 1 0.00 0.0 1-50"; echo "move 1-50" ;;
                crash) exit 3 ;;
            esac ;;
        quit) exit 0 ;;
    esac
done
