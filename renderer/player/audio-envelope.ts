// The loudness of a stretch of sound over time: root mean square of the channels' samples in
// consecutive windows. The browser test compares the preview's envelope with the export's.

/** RMS per `windowSeconds` window over all channels (a last partial window is dropped). */
export function rmsEnvelope(
  channels: readonly Float32Array[],
  sampleRate: number,
  windowSeconds: number,
): number[] {
  const size = Math.max(1, Math.round(sampleRate * windowSeconds));
  const length = Math.min(...channels.map((channel) => channel.length));
  const envelope: number[] = [];
  for (let start = 0; start + size <= length; start += size) {
    let sum = 0;
    for (const channel of channels) {
      for (let i = start; i < start + size; i++) sum += channel[i]! * channel[i]!;
    }
    envelope.push(Math.sqrt(sum / (size * channels.length)));
  }
  return envelope;
}
