// 16-bit PCM WAV encoding for the synthesised sounds.

/** Encodes channels of float samples (-1..1) as a 16-bit PCM WAV file. */
export function encodeWav(channels: Float32Array[], sampleRate: number): Buffer {
  const frames = channels[0]?.length ?? 0;
  const blockAlign = channels.length * 2;
  const buffer = Buffer.alloc(44 + frames * blockAlign);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + frames * blockAlign, 4);
  buffer.write('WAVEfmt ', 8, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(channels.length, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * blockAlign, 28);
  buffer.writeUInt16LE(blockAlign, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(frames * blockAlign, 40);
  for (let i = 0; i < frames; i++) {
    channels.forEach((channel, c) => {
      const sample = Math.max(-1, Math.min(1, channel[i]!));
      buffer.writeInt16LE(Math.round(sample * 32767), 44 + i * blockAlign + c * 2);
    });
  }
  return buffer;
}

/** Scales every channel so the loudest sample sits at `peakDb` dBFS. */
export function normalizePeak(channels: Float32Array[], peakDb: number): void {
  let peak = 0;
  for (const channel of channels) for (const sample of channel) peak = Math.max(peak, Math.abs(sample));
  if (peak === 0) return;
  const gain = 10 ** (peakDb / 20) / peak;
  for (const channel of channels) for (let i = 0; i < channel.length; i++) channel[i]! *= gain;
}
