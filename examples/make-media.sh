#!/usr/bin/env bash
# Regenerates every file in examples/assets/ from nothing: images painted with @napi-rs/canvas, sounds
# synthesised in code (seeded, so each run writes the same samples), the wave clip drawn frame by
# frame and encoded with the bundled ffmpeg, and the voice-over spoken by espeak-ng and levelled by sox.
# Needs: Node >= 22.18 (found via main/launcher/node24.mjs), espeak-ng and sox on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE="$(node main/launcher/node24.mjs --print-path)"
FFMPEG="$("$NODE" -e "console.log(require('@ffmpeg-installer/ffmpeg').path)")"
for tool in espeak-ng sox; do
  command -v "$tool" >/dev/null || { echo "make-media: $tool is required (apt-get install $tool)" >&2; exit 1; }
done

ASSETS=examples/assets
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Bit-exact output: no encoder version strings or timestamps in the files.
EXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)

"$NODE" examples/media-src/write-media.ts "$ASSETS" "$WORK"

# 4 s of light ribbons over a soft A-major chord with a 2 Hz tremolo. The chord uses just intonation
# (220/275/330/440 Hz) so every partial completes whole cycles in 4 s and the clip loops cleanly.
CHORD='0.1*(sin(2*PI*220*t)+0.8*sin(2*PI*275*t)+0.7*sin(2*PI*330*t)+0.35*sin(2*PI*440*t))'
"$NODE" examples/media-src/write-wave-frames.ts |
  "$FFMPEG" -v error -y -f rawvideo -pix_fmt rgba -s 1280x720 -r 30 -i - \
    -f lavfi -i "aevalsrc=${CHORD}*(0.7+0.3*sin(2*PI*2*t))|${CHORD}*(0.7+0.3*sin(2*PI*2*t+1)):s=48000:d=4" \
    -c:v libx264 -preset slow -crf 23 -pix_fmt yuv420p -threads 1 \
    -c:a aac -b:a 128k -shortest -movflags +faststart "${EXACT[@]}" "$ASSETS/clip-waves.mp4"

"$FFMPEG" -v error -y -i "$WORK/music-loop.wav" -c:a aac -b:a 160k -movflags +faststart "${EXACT[@]}" \
  "$ASSETS/music-loop.m4a"

espeak-ng -v en-us -s 140 -p 42 -w "$WORK/voice.wav" "Welcome to Kino"
sox -D "$WORK/voice.wav" -r 48000 -b 16 "$ASSETS/voice-hello.wav" highpass 90 gain -n -3

du -ch "$ASSETS"/* | tail -n 1
