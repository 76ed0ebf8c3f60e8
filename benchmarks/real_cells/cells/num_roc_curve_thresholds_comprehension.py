# ruff: noqa
"""An ROC curve computed "from scratch": for each threshold, predictions and the four confusion counts by list comprehensions.

source: blog posts and course notebooks that draw an ROC curve by hand before sklearn's roc_curve
        (for threshold in np.linspace(0, 1, 101): y_pred = [1 if p >= threshold else 0 for p in
        y_prob]; tp = sum(1 for t, p in zip(y_true, y_pred) if t == 1 and p == 1); fp, tn, fn the
        same way; tpr and fpr appended), on a classifier's test-set probabilities
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: order = np.argsort(-y_prob); cumulative sums of y_true[order] give tp and fp at every distinct score (sklearn.metrics.roc_curve); or, for the same 101 thresholds, pred = y_prob[None, :] >= thresholds[:, None] and tp = (pred & (y_true == 1)).sum(1) (the same counts)
size: 5,000 test predictions, 101 thresholds
scaled: no
kernel: data
"""
# %% setup
import numpy as np

rng = np.random.default_rng(303)
y_test = rng.integers(0, 2, 5_000)
y_prob = np.clip(0.35 * y_test + rng.normal(0.32, 0.2, 5_000), 0, 1)
# %% cell
def roc_point(y_true, y_prob, threshold):
    y_pred = [1 if p >= threshold else 0 for p in y_prob]  # expect: AIP201
    tp = sum(1 for t, p in zip(y_true, y_pred) if t == 1 and p == 1)  # expect: AIP201
    fp = sum(1 for t, p in zip(y_true, y_pred) if t == 0 and p == 1)  # expect: AIP201
    tn = sum(1 for t, p in zip(y_true, y_pred) if t == 0 and p == 0)  # expect: AIP201
    fn = sum(1 for t, p in zip(y_true, y_pred) if t == 1 and p == 0)  # expect: AIP201
    return fp / (fp + tn), tp / (tp + fn)


fpr, tpr = [], []
for threshold in np.linspace(0, 1, 101):  # expect: AIP201
    f, t = roc_point(y_test, y_prob, threshold)  # expect: AIP201
    fpr.append(f)
    tpr.append(t)
auc = -np.trapezoid(tpr, fpr)
