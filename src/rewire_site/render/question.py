"""The page of a question (a decision a reader faces): the protocols and evaluations
that bear on it."""

from __future__ import annotations

from ..link import Catalogue
from ..models import Evaluation, Question
from .contexts import QuestionPage, SiteFacts
from .leads import list_answer
from .parts import common_fields, evaluation_list, link_to


def question_page(
    question: Question,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> QuestionPage:
    q = question
    evaluations = [catalogue.get(e, Evaluation) for e in q.evaluations]
    results = evaluation_list(
        "Evaluations that bear on this decision", evaluations, catalogue, facts
    )
    return QuestionPage(
        **common_fields(q, catalogue, facts, "question.html"),
        answer=list_answer("bear on this decision", results),
        decision=q.decision,
        considerations=tuple(q.considerations),
        results=results,
        protocols=tuple(link_to(catalogue, p) for p in q.protocols),
    )
