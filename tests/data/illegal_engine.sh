#!/usr/bin/env bash
# A Hub engine that answers every search with an illegal move (for the
# referee's tests).
while read -r line; do
    case "$line" in
        hub) echo "id name=illegal version=1"; echo "wait" ;;
        init) echo "ready" ;;
        ping) echo "pong" ;;
        go*) echo "done move=1-50" ;;
        quit) exit 0 ;;
    esac
done
