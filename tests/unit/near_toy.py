"""The opening of the toy rulesets of the tests of neighbours counted from an index
(test_near_reads.py, test_near_lifted.py): eight nodes in a ring with a chord, a stone per
node at most, and the def whose values the counts answer."""

HEADER = """
game toy "Toy"
players 2..2
board map: graph
    nodes a, b, c, d, e, f, g, h
    edges a - b, b - c, c - d, d - e, e - f, f - g, g - h, h - a, a - e
piece stone:
    owner: player
zone site per map: public
zone pool per player: public
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def near_mine(x, p, lifted) = any(owner_of(n) == p and n != lifted for n in neighbours(map, x))
"""
