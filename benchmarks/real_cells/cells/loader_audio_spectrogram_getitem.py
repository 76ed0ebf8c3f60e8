# ruff: noqa
"""Keyword-spotting training: a Dataset computing each clip's log spectrogram with NumPy in __getitem__, no workers.

source: speech-command classification notebooks (Kaggle's TensorFlow speech recognition challenge
        in PyTorch, audio-classification tutorials): a Dataset that frames each 1-second clip,
        applies a Hann window and np.fft.rfft, takes the log power, and returns a tensor, fed to
        a DataLoader without num_workers and a small classifier
family: dataloader
kind: slow
verdict: AIP907
rewrite: yes: num_workers=2 (the gain needs free cores), or the spectrograms computed once before training
size: 1,500 clips of 1 s at 8 kHz, 35 words, batch 64, one epoch
scaled: yes: the speech commands set has 105,829 clips at 16 kHz
kernel: torch
"""
# %% setup
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(116)
rng = np.random.default_rng(116)
clips = rng.standard_normal((1_500, 8_000)).astype(np.float32) * 0.1
targets = rng.integers(0, 35, 1_500)


class SpeechCommands(Dataset):
    def __init__(self, clips, targets, n_fft=256, hop=128):
        self.clips, self.targets = clips, targets
        self.n_fft, self.hop = n_fft, hop
        self.window = np.hanning(n_fft).astype(np.float32)

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, idx):
        wave = self.clips[idx]
        wave = wave / (np.abs(wave).max() + 1e-8)
        frames = [wave[s:s + self.n_fft] * self.window for s in range(0, len(wave) - self.n_fft, self.hop)]
        spec = np.abs(np.fft.rfft(np.stack(frames), axis=1)) ** 2
        spec = np.log(spec + 1e-6)
        spec = (spec - spec.mean()) / (spec.std() + 1e-6)
        return torch.from_numpy(spec.astype(np.float32)).unsqueeze(0), int(self.targets[idx])


train_set = SpeechCommands(clips, targets)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((8, 8)),
                      nn.Flatten(), nn.Linear(512, 35))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %% cell
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)  # expect: AIP101
model.train()
for specs, labels in train_loader:  # expect: AIP101
    optimizer.zero_grad()
    loss = criterion(model(specs), labels)
    loss.backward()
    optimizer.step()
