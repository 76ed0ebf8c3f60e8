# ruff: noqa
"""Word frequencies with wordlist.count(w) for every word of the list, zipped into a dictionary and sorted.

source: the Programming Historian lesson "Counting Word Frequencies with Python" (William J.
        Turkel and Adam Crymble): wordfreq = [wordlist.count(p) for p in wordlist] inside
        wordListToFreqDict, then dict(zip(wordlist, wordfreq)) and a sort by frequency, run on
        the words of a downloaded trial transcript
family: membership
kind: slow
verdict: AIP907
rewrite: yes: collections.Counter(wordlist) (the same counts; the dictionary's keys in the same first-seen order)
size: a text of 7,000 words
scaled: yes: the lesson's trial transcript has a few thousand words; a longer text (a report, a chapter) the same way
kernel: data
unsure: list.count scans the whole list for each word, as a membership test does; AIP202 is the closest code, and any code on these lines is accepted
"""
# %% setup
import re

from cell_data import words

text = " ".join(words(7_000, seed=308)).capitalize() + "."


def strip_non_alphanum(text):
    return re.compile(r"\W+").split(text)


def sort_freq_dict(freqdict):
    aux = [(freqdict[key], key) for key in freqdict]
    aux.sort()
    aux.reverse()
    return aux
# %% cell
def word_list_to_freq_dict(wordlist):
    wordfreq = [wordlist.count(p) for p in wordlist]  # expect: *
    return dict(zip(wordlist, wordfreq))


wordlist = strip_non_alphanum(text.lower())
dictionary = word_list_to_freq_dict(wordlist)  # expect: *
sorteddict = sort_freq_dict(dictionary)
top = sorteddict[:20]
