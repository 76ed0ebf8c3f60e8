# ruff: noqa
"""Greedy CTC decoding of a speech model's outputs frame by frame: two Python loops read each frame's best label with .item(), skip repeats and blanks, and join the characters.

source: speech-recognition tutorials and notebooks (DeepSpeech- and wav2vec2-style models trained
        with CTC loss) whose decoder is written by hand (best = log_probs.argmax(-1); for t in
        range(T): k = best[b, t].item(); if k != prev and k != blank: chars.append(labels[k]);
        prev = k), run over a batch of utterances
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: per utterance ids = torch.unique_consecutive(best[b]); ids = ids[ids != blank], then "".join(alphabet[k] for k in ids.tolist()) (the same transcripts); or best.tolist() once and the same loop over Python ints
size: 200 utterances of 1,000 frames, 29 labels
scaled: no
kernel: torch
unsure: the loop carries the previous frame's label and reads one tensor item per step; no rule of the
        catalog names decoding by items, and any code on these lines is accepted
"""
# %% setup
import torch

torch.manual_seed(513)
alphabet = "_abcdefghijklmnopqrstuvwxyz' "
blank = 0
n_utt, n_frames = 200, 1_000
# an acoustic model's output: mostly blanks, each character held for a few frames
segments = torch.randint(1, len(alphabet), (n_utt, n_frames // 4))
frame_labels = segments.repeat_interleave(4, dim=1)
frame_labels[torch.rand(n_utt, n_frames) < 0.55] = blank
logits = torch.randn(n_frames, n_utt, len(alphabet))
logits.scatter_add_(2, frame_labels.T.unsqueeze(2), torch.full((n_frames, n_utt, 1), 6.0))
log_probs = logits.log_softmax(dim=2)
# %% cell
best = log_probs.argmax(dim=2).T
transcripts = []
for b in range(best.shape[0]):  # expect: *
    prev, chars = blank, []
    for t in range(best.shape[1]):  # expect: *
        k = best[b, t].item()  # expect: *
        if k != prev and k != blank:
            chars.append(alphabet[k])
        prev = k
    transcripts.append("".join(chars))
mean_length = sum(len(s) for s in transcripts) / len(transcripts)
