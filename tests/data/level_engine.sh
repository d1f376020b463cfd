#!/usr/bin/env bash
# A Hub engine that writes every `level` line it is sent to the file named
# by its first argument and answers every search with an illegal move (for
# the referee's tests of time odds).
while read -r line; do
    case "$line" in
        hub) echo "id name=levels version=1"; echo "wait" ;;
        init) echo "ready" ;;
        level*) echo "$line" >> "$1" ;;
        go*) echo "done move=1-50" ;;
        quit) exit 0 ;;
    esac
done
