# ruff: noqa
"""Short-time energy and zero-crossing rate of a speech recording for voice-activity detection, computed frame by frame with an inner Python loop over each frame's samples.

source: speech-processing course notebooks and audio-feature tutorials that write the classic VAD
        features by hand (25 ms frames every 10 ms: for f in range(n_frames): for n in
        range(start, start + frame_len): energy += x[n] ** 2; if sign changes: crossings += 1),
        before librosa.feature.zero_crossing_rate or a strided view
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: frames = np.lib.stride_tricks.sliding_window_view(signal, frame_len)[::hop]; energy = (frames ** 2).mean(axis=1); zcr = np.count_nonzero(np.diff(frames >= 0, axis=1), axis=1) / (frame_len - 1) (the same features; energies equal within 1e-12)
size: 20 s of 16 kHz audio: 1,998 frames of 400 samples, hop 160
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(711)
sr = 16_000
t = np.arange(20 * sr) / sr
envelope = (np.sin(2 * np.pi * 0.4 * t) > 0.1).astype(float)
signal = envelope * (0.5 * np.sin(2 * np.pi * 180 * t) + 0.2 * np.sin(2 * np.pi * 720 * t)) + rng.normal(0, 0.05, len(t))
frame_len, hop = 400, 160
# %% cell
n_frames = 1 + (len(signal) - frame_len) // hop
energy = np.zeros(n_frames)
zcr = np.zeros(n_frames)
for f in range(n_frames):  # expect: AIP201
    start = f * hop
    e = 0.0
    crossings = 0
    for n in range(start, start + frame_len):  # expect: AIP201
        e += signal[n] * signal[n]  # expect: AIP201
        if n > start and (signal[n] >= 0) != (signal[n - 1] >= 0):  # expect: AIP201
            crossings += 1
    energy[f] = e / frame_len
    zcr[f] = crossings / (frame_len - 1)
voiced = (energy > 0.5 * energy.mean()) & (zcr < 0.15)
