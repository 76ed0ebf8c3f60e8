# ruff: noqa
"""Beam-search decoding with a trained GRU decoder, one decoder call per live beam per step, with the model in eval mode and autograd on: every call records a graph nobody uses.

source: seq2seq translation and summarisation tutorials in PyTorch that add beam search after
        greedy decoding (model.eval(); for each source sentence: beams = [([BOS], 0.0, hidden)];
        for step in range(max_len): for tokens, score, h in beams: logits, h2 = decoder(
        torch.tensor([tokens[-1]]), h); top-k of log_softmax; keep the best beam_width), written
        without torch.no_grad()
family: no-grad
kind: slow
verdict: AIP907|AIP908
rewrite: yes: the same loops under torch.inference_mode() (the same tokens, no graph recorded per call); batching the beams into one decoder call per step goes further
size: 16 source sentences, beam width 5, 20 steps (1,600 decoder calls), vocabulary 4,000, GRU hidden size 256
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(721)
vocab_size, emb_dim, hidden_size = 4_000, 128, 256
BOS, EOS = 1, 2


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRU(emb_dim, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, token, hidden):
        output, hidden = self.gru(self.embedding(token).unsqueeze(1), hidden)
        return self.out(output.squeeze(1)), hidden


decoder = Decoder()
encoder_states = [torch.randn(1, 1, hidden_size) for _ in range(16)]
beam_width, max_len = 5, 20
# %% cell
decoder.eval()
translations = []
for hidden0 in encoder_states:  # expect: AIP502
    beams = [([BOS], 0.0, hidden0)]
    for step in range(max_len):
        candidates = []
        for tokens, score, hidden in beams:
            if tokens[-1] == EOS:
                candidates.append((tokens, score, hidden))
                continue
            logits, new_hidden = decoder(torch.tensor([tokens[-1]]), hidden)  # expect: AIP502
            top_lp, top_ix = F.log_softmax(logits, dim=-1).squeeze(0).topk(beam_width)
            for lp, ix in zip(top_lp.tolist(), top_ix.tolist()):
                candidates.append((tokens + [ix], score + lp, new_hidden))
        beams = sorted(candidates, key=lambda b: b[1], reverse=True)[:beam_width]
    translations.append(beams[0][0])
