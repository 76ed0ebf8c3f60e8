# ruff: noqa
"""One round of Schelling's segregation model: each agent sorts its distances to every other agent.

source: QuantEcon's lecture "Schelling's Segregation Model" (the Agent class: draw_location,
        get_distance with math.sqrt, happy() building [(self.get_distance(agent), agent) for agent
        in agents], sorting it and counting the same type among the 10 nearest; update moves the
        unhappy ones), the pure-Python version the lecture runs before its NumPy one
family: numeric-loop
kind: slow
verdict: AIP907
rewrite: yes: the agents' locations in one (n, 2) array: every agent's distances in one broadcast, the 10 nearest with np.argpartition (the same happiness)
size: 1,000 agents (500 of each type), 10 neighbours, one pass
scaled: no
kernel: data
"""
# %% setup
from math import sqrt
from random import seed, uniform

seed(207)
num_neighbors = 10
require_same_type = 5


class Agent:
    def __init__(self, type):
        self.type = type
        self.location = uniform(0, 1), uniform(0, 1)

    def get_distance(self, other):
        a = (self.location[0] - other.location[0]) ** 2
        b = (self.location[1] - other.location[1]) ** 2
        return sqrt(a + b)

    def happy(self, agents):
        distances = [(self.get_distance(agent), agent) for agent in agents if agent is not self]  # expect: AIP201
        distances.sort(key=lambda pair: pair[0])  # expect: AIP201
        neighbors = [agent for d, agent in distances[:num_neighbors]]
        return sum(self.type == agent.type for agent in neighbors) >= require_same_type


agents = [Agent(0) for _ in range(500)] + [Agent(1) for _ in range(500)]
# %% cell
unhappy = [agent for agent in agents if not agent.happy(agents)]  # expect: AIP201
share_unhappy = len(unhappy) / len(agents)
