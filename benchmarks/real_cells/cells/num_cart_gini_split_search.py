# ruff: noqa
"""The root split of a decision tree written from scratch: every row's value tried as a threshold on every feature, the Gini index of each split computed in Python.

source: Jason Brownlee's "How To Implement The Decision Tree Algorithm From Scratch In Python"
        (Machine Learning Mastery) on the banknote authentication data set: test_split(index,
        value, dataset) partitions a list of rows, gini_index(groups, classes) counts the classes
        of each group, get_split(dataset) tries every (feature, row value) pair and keeps the
        lowest Gini
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: per feature, sort the rows once and sweep the thresholds with cumulative class counts (np.cumsum), computing every split's Gini at once (the same best split; ties kept in the same order); or sklearn's DecisionTreeClassifier
size: 1,372 rows of 4 features and a class (the banknote data set's size)
scaled: no
kernel: data
unsure: no rule of the catalog names an O(n^2) split search; any code on these lines is accepted
"""
# %% setup
import numpy as np

rng = np.random.default_rng(306)
n = 1_372
cls = (rng.random(n) < 0.445).astype(int)
features = np.column_stack([
    rng.normal(np.where(cls == 1, -1.9, 2.3), 2.0),
    rng.normal(np.where(cls == 1, -1.0, 4.3), 5.0),
    rng.normal(np.where(cls == 1, 2.1, 0.8), 4.0),
    rng.normal(np.where(cls == 1, -1.2, -1.1), 2.1),
]).round(4)
dataset = [list(map(float, row)) + [int(c)] for row, c in zip(features, cls)]


def test_split(index, value, rows):
    left, right = [], []
    for row in rows:
        if row[index] < value:
            left.append(row)
        else:
            right.append(row)
    return left, right


def gini_index(groups, classes):
    total = float(sum(len(group) for group in groups))
    gini = 0.0
    for group in groups:
        size = float(len(group))
        if size == 0:
            continue
        score = 0.0
        for class_val in classes:
            p = [row[-1] for row in group].count(class_val) / size
            score += p * p
        gini += (1.0 - score) * (size / total)
    return gini
# %% cell
def get_split(rows):
    class_values = list(set(row[-1] for row in rows))
    best_index, best_value, best_score, best_groups = 999, 999, 999, None
    for index in range(len(rows[0]) - 1):  # expect: *
        for row in rows:  # expect: *
            groups = test_split(index, row[index], rows)  # expect: *
            gini = gini_index(groups, class_values)  # expect: *
            if gini < best_score:
                best_index, best_value, best_score, best_groups = index, row[index], gini, groups
    return {"index": best_index, "value": best_value, "groups": best_groups}


root = get_split(dataset)  # expect: *
print(f"X{root['index'] + 1} < {root['value']:.3f}")
