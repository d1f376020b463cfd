#!/usr/bin/env bash
# A Hub engine that never answers a search (for the referee's tests).
while read -r line; do
    case "$line" in
        hub) echo "id name=silent version=1"; echo "wait" ;;
        init) echo "ready" ;;
        quit) exit 0 ;;
    esac
done
