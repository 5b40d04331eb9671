"""Pass 5, lower: the rule model -> an engine plan (tables and Python code for each rule).

Takes a checked :class:`~compiler.model.Rules`; returns an :class:`EnginePlan`: the
constant tables of the generated engine (cards, nobles, the player-count table, the
action table with one integer id per action and its notation), and, for every action
and step, the Python source of three functions: the legal-action generator, the
effect, and the explanation of why an action is illegal. Every decision about the
rules is made here; :mod:`compiler.emit.engine` only lays the plan out.

Expressions are compiled to Python, never interpreted at run time:

* aggregates over fixed collections (gems, colours, levels) are unrolled, and
  constant values are inlined with their name in a comment;
* a condition is split into its conjuncts, and each conjunct is tested at the
  outermost loop where every choice it mentions is bound (loop-invariant code
  motion); sub-expressions that do not depend on the inner choices are hoisted into
  locals the same way;
* a ``gem_set`` choice with a conjunct ``all(P(c) for c in set)`` iterates only over
  subsets of the colours that satisfy ``P``, from a table indexed by bitmask;
* a ``payment`` choice is not part of the action id: the action is legal when some
  payment is possible, and the player chooses among payments in a step of its own
  only when there are several (every distinct payment stays reachable).

The action phase's legal ids come from one fused function whose shape follows what
CPython executes cheaply (measured with ``bench/callgrind_engine.sh``): the players'
supply, tokens and bonuses read once into scalar locals; tests before any choice
nested as ``if`` blocks; a last choice over colours or levels unrolled into one test
per value; a gem set with no test left added from a table of ids; face-up slots and
reserved positions counted by hand rather than with ``enumerate``; a card's cost
unpacked into locals and the payment test staged (a shortfall in some gem first, the
sum of shortfalls against the gold only then); a purchase loop that reads nothing of
the card but its cost walks ``Game.face_up_costs``, a flat list of the face-up cards'
costs that the effects keep in step with the market (an empty slot holds a cost no one
can pay, so the loop needs no test for it). Every one of these is checked against
the plain compilation of the same conditions (each action's ``_why_NAME``) at every
decision of random games by ``tests/test_lowering.py``.

The package, one module per seam: :mod:`.layout` (the action table and the notation),
:mod:`.expressions` (expressions and effects), :mod:`.decisions` and :mod:`.legal` (one
decision's functions), :mod:`.phases` (the fused action phase, the steps, the end and the
ranking), :mod:`.hooks` (what a spec adds to the runtime's functions, as the functions the
runtime calls) and :mod:`.driver` (:func:`lower`). Rule functions are built as a statement tree
(:mod:`.tree`) whose expressions are ``ast.expr`` nodes (:mod:`.ir`), never text; constant
folding, negation and the other questions asked of an expression are tree passes (:mod:`.fold`);
the tree is shaped by transformations (:mod:`.shapes`, and liveness: :func:`.tree.tidy`), and
written as Python by the tree's one printer (:mod:`.printer`).
"""

from .driver import lower
from .expressions import ExprCompiler
from .layout import DecisionPlan, EnginePlan, LoweringBug, ParamLayout, payment_vectors
from .tokens import effect_located, raise_rule_error

__all__ = [
    "DecisionPlan",
    "EnginePlan",
    "ExprCompiler",
    "LoweringBug",
    "ParamLayout",
    "effect_located",
    "lower",
    "payment_vectors",
    "raise_rule_error",
]
