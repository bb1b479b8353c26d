"""The exact movement chain of one token, walked through the engine's rules (:mod:`laspoly.chain.movement`).

It needs numpy, and sits between the engine and its users: the bots (who price
rents by its landings) and the analysis.
"""
