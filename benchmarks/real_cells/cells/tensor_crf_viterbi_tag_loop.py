# ruff: noqa
"""Viterbi decoding of a CRF tagger's scores with an inner Python loop over the tags at every word.

source: the PyTorch tutorial "Advanced: Making Dynamic Decisions and the Bi-LSTM CRF"
        (_viterbi_decode: for feat in feats: for next_tag in range(self.tagset_size):
        next_tag_var = forward_var + self.transitions[next_tag]; best_tag_id =
        argmax(next_tag_var); ...; then the back-pointers followed), which says itself that the
        inner loop could be vectorised; here decoding a test set's emission scores
family: tensor-loop
kind: slow
verdict: AIP907
rewrite: yes: at each word, scores = forward_var + transitions (tags x tags) and best_scores, best_tags = scores.max(1) for all next tags at once (the same paths)
size: 300 sentences of 8 to 22 words, 9 NER tags plus START and STOP
scaled: yes: the tutorial decodes two toy sentences; a small test set of CoNLL-style tags
kernel: torch
unsure: the loop over words is a recurrence and stays; the inner loop over tags is the trap, which
        no rule names exactly (AIP201 is the closest): any code on these lines is accepted
"""
# %% setup
import torch

torch.manual_seed(322)
tags = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC", "<START>", "<STOP>"]
tag_to_ix = {t: i for i, t in enumerate(tags)}
tagset_size = len(tags)
START, STOP = tag_to_ix["<START>"], tag_to_ix["<STOP>"]
transitions = torch.randn(tagset_size, tagset_size)
transitions[START, :] = -10000.0
transitions[:, STOP] = -10000.0
lengths = torch.randint(8, 23, (300,)).tolist()
sentence_feats = [torch.randn(n, tagset_size) for n in lengths]


def argmax(vec):
    _, idx = torch.max(vec, 1)
    return idx.item()
# %% cell
def viterbi_decode(feats):
    backpointers = []
    init_vvars = torch.full((1, tagset_size), -10000.0)
    init_vvars[0][START] = 0
    forward_var = init_vvars
    for feat in feats:  # expect: *
        bptrs_t, viterbivars_t = [], []
        for next_tag in range(tagset_size):  # expect: *
            next_tag_var = forward_var + transitions[next_tag]  # expect: *
            best_tag_id = argmax(next_tag_var)  # expect: *
            bptrs_t.append(best_tag_id)
            viterbivars_t.append(next_tag_var[0][best_tag_id].view(1))  # expect: *
        forward_var = (torch.cat(viterbivars_t) + feat).view(1, -1)
        backpointers.append(bptrs_t)
    terminal_var = forward_var + transitions[STOP]
    best_tag_id = argmax(terminal_var)
    path_score = terminal_var[0][best_tag_id]
    best_path = [best_tag_id]
    for bptrs_t in reversed(backpointers):
        best_tag_id = bptrs_t[best_tag_id]
        best_path.append(best_tag_id)
    best_path.pop()
    best_path.reverse()
    return path_score, best_path


with torch.no_grad():
    decoded = [viterbi_decode(feats)[1] for feats in sentence_feats]  # expect: *
entities = sum(tags[t].startswith("B-") for path in decoded for t in path)
