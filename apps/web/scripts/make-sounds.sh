#!/bin/sh
# Generates the notification sounds in apps/web/public/sounds with sox (needs libsox-fmt-mp3:
# `apt-get install -y sox libsox-fmt-mp3`). Short, quiet, mono 44.1 kHz MP3s; retro.mp3 is the
# default sound (docs/contract.md §9). Re-run after changing a recipe; the files are committed.
set -eu
out="$(dirname "$0")/../public/sounds"
mkdir -p "$out"
cd "$out"
opts="-r 44100 -c 1"
# retro: a rising three-note square-wave arpeggio, like an 8-bit pickup.
sox -n $opts retro.mp3 synth 0.07 square 660 : synth 0.07 square 880 : synth 0.14 square 1320 fade 0 0.14 0.08 gain -14
# chime: two soft sine bells a fifth apart.
sox -n $opts chime.mp3 synth 0.6 sine 1046.5 sine 1568 remix 1,2 fade 0.005 0.6 0.55 gain -10
# blip: a short falling triangle blip, the least intrusive.
sox -n $opts blip.mp3 synth 0.12 triangle 1200-600 fade 0 0.12 0.06 gain -8
ls -l retro.mp3 chime.mp3 blip.mp3
