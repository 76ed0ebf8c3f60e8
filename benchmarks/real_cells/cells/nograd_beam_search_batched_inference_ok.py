# ruff: noqa
"""Beam-search decoding of a whole set of sentences at once: all sentences' beams stacked into one batch, one decoder call per step under torch.inference_mode(), the best beams kept with one topk over each sentence's beam x vocabulary scores.

source: batched beam-search implementations in seq2seq tutorials and libraries (hidden states
        repeated beam_width times; each step: log_probs = scores[:, None] + log_softmax(logits);
        topk over beam * vocab per sentence; beams and hidden reordered with index_select),
        decoding a validation set
family: no-grad
kind: healthy
verdict: none|AIP907|AIP908
rewrite: no: one batched decoder call per step, no graph recorded
size: 100 source sentences, beam width 5, 20 steps (20 decoder calls of 500 rows), vocabulary 4,000, GRU hidden size 256
scaled: no
kernel: torch
"""
# %% setup
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(722)
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
encoder_states = torch.randn(100, hidden_size)
beam_width, max_len = 5, 20
# %% cell
decoder.eval()
with torch.inference_mode():
    n = encoder_states.shape[0]
    hidden = encoder_states.repeat_interleave(beam_width, dim=0).unsqueeze(0)
    tokens = torch.full((n * beam_width, 1), BOS)
    scores = torch.full((n, beam_width), float("-inf"))
    scores[:, 0] = 0.0
    for step in range(max_len):
        logits, hidden = decoder(tokens[:, -1], hidden)
        log_probs = F.log_softmax(logits, dim=-1)
        finished = tokens[:, -1] == EOS
        log_probs[finished] = float("-inf")
        log_probs[finished, EOS] = 0.0
        total = (scores.view(-1, 1) + log_probs).view(n, beam_width * vocab_size)
        scores, flat = total.topk(beam_width, dim=1)
        source = (torch.arange(n).unsqueeze(1) * beam_width + flat // vocab_size).view(-1)
        tokens = torch.cat([tokens[source], (flat % vocab_size).view(-1, 1)], dim=1)
        hidden = hidden[:, source]
    best = tokens.view(n, beam_width, -1)[:, 0]
translations = best.tolist()
