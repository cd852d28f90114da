#!/usr/bin/env bash
# A whole En Dodoi bot in bash: it plays the first legal hole.
# Config: command = ["bash", "bots/shell/first_legal.sh"]
# Check:  arena check -- bash bots/shell/first_legal.sh
# Bash's echo writes each line at once, so every reply is flushed.
set -f # no globbing of the words below
while read -r command args; do
  case "$command" in
    hello) echo "hello version=1 name=first-legal-sh" ;;
    newgame) echo "ready" ;;
    turn)
      for word in $args; do
        case "$word" in
          legal=*) legal=${word#legal=}; echo "move ${legal%%,*}" ;;
        esac
      done
      ;;
    quit) exit 0 ;;
  esac # gameover and anything else: no reply
done
