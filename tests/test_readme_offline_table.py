"""The README's table of what the offline judge reads, and what gets past it, as verdicts.

Each case is an example the README gives (claim against context). When a rule changes a
verdict here, the README must change with it: these tests are what keep it true.
"""

import warnings

import pandas as pd
import pytest

import ragnotebook  # noqa: F401  (registers df.rag)


def _verdicts(context: str, claim: str) -> list[str]:
    df = pd.DataFrame({"question": ["q"], "answer": [claim], "contexts": [[context]]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the one-time offline-judge notice
        out = df.rag.evaluate(model="offline", metrics=["faithfulness"], progress=False)
    return [v["verdict"] for v in out["faithfulness_verdicts"].iloc[0]]


READS = [
    ("Take a dose of 4 mg each morning.", "Take a dose of 4 g each morning.", "no"),
    ("The parcel weighs 5 kg.", "The parcel weighs 5 lb.", "no"),
    ("The plan costs $10 per month.", "The plan costs $10 per year.", "no"),
    ("Store the vials at 2 to 8 °C.", "Store the vials at 2 to 8 °F.", "no"),
    (
        "The Pro plan costs $12 per user per month, billed annually.",
        "Pro costs $12/user/month billed annually.",
        "yes",
    ),
    (
        "Take simvastatin once daily in the evening.",
        "Take simvastatin once daily in the morning.",
        "no",
    ),
    ("Tickets are non-refundable.", "Tickets are fully refundable.", "no"),
    ("Do not exceed 6 tablets in 24 hours.", "You can exceed 6 tablets in 24 hours.", "no"),
    ("The warranty lasts 3 years.", "The warranty lasts 36 months.", "yes"),
    ("The warranty lasts 3 years.", "The warranty lasts 3 months.", "no"),
    ("The timeout is 2000 ms.", "The timeout is 2 seconds.", "yes"),
    ("We do not ship to Switzerland.", "We ship to Switzerland.", "no"),
    ("Sales fell sharply in March.", "Sales rose sharply in March.", "no"),
    ("Some stores open on Sundays.", "All stores open on Sundays.", "no"),
    ("Some stores open on Sundays.", "Every store opens on Sundays.", "no"),
    ("Most stores open on Sundays.", "All stores open on Sundays.", "no"),
    ("Ticket sales fell in 2023.", "Ticket sales went up in 2023.", "no"),
    ("Ticket sales fell 4% in 2023.", "Ticket sales were up 4% in 2023.", "no"),
    (
        '{"name": "Harbor Diner", "city": "Goleta", "state": "CA"}',
        "Harbor Diner is in Goleta, California.",
        "yes",
    ),
    ("Tenants may paint the walls.", "Tenants must paint the walls.", "no"),
    ("Tenants must paint the walls.", "Tenants may paint the walls.", "unsure"),
    ("Tickets are non-refundable.", "Tickets are refundable.", "no"),
    (
        "The new policy applies from 1 April 2024.",
        "The new policy applies before 1 April 2024.",
        "no",
    ),
    (
        "The new policy applies before 1 April 2024.",
        "The new policy applies from 1 April 2024.",
        "no",
    ),
    (
        "The new policy applies from 1 April 2024.",
        "The new policy applies until 1 April 2024.",
        "no",
    ),
    ("The plan allows up to 50 users.", "The plan allows more than 50 users.", "no"),
    ("Lake Tana is the second largest lake.", "Lake Tana is the largest lake.", "no"),
    ("The office is open Monday to Friday.", "The office is open on Wednesday.", "yes"),
    (
        "Refunds are given in all cases unless the item was used.",
        "Refunds are given in all cases.",
        "no",
    ),
    ("All plans except Silver include phone support.", "All plans include phone support.", "no"),
    (
        "The Basic and Standard plans do not include phone support.",
        "The Basic plan includes phone support.",
        "no",
    ),
    ("The report was written by Jane Smith.", "The report was written by John Smith.", "unsure"),
    ("Smith beat Jones in the final.", "Jones beat Smith in the final.", "unsure"),
    (
        "The Pro plan includes a 99.9% uptime SLA. The Enterprise plan includes a 99.95% uptime SLA.",
        "The Pro plan includes a 99.95% uptime SLA.",
        "unsure",
    ),
    (
        "The retirement bonus is paid to employees aged 55 and over.",
        "The retirement bonus is paid to all employees.",
        "unsure",
    ),
]

GETS_PAST = [
    (
        "Codeine is contraindicated in women who are breastfeeding.",
        "Codeine is safe for women who are breastfeeding.",
        "yes",
    ),
    (
        "Take one tablet twice daily with meals.",
        "Take one tablet twice daily on an empty stomach.",
        "yes",
    ),
    ("He joined in 2015 and left in 2020.", "He left in 2015.", "yes"),
    ("You can purchase tickets online.", "You can buy tickets.", "unsure"),
]


@pytest.mark.parametrize(("context", "claim", "verdict"), READS)
def test_what_the_readme_says_it_reads(context, claim, verdict):
    assert _verdicts(context, claim) == [verdict]


@pytest.mark.parametrize(("context", "claim", "verdict"), GETS_PAST)
def test_what_the_readme_says_gets_past_it(context, claim, verdict):
    assert _verdicts(context, claim) == [verdict]


def test_what_the_readme_says_of_list_shaped_ground_truths():
    def recall(ground_truth: str) -> tuple[float, int]:
        df = pd.DataFrame(
            {
                "question": ["What does the plan include?"],
                "answer": ["x"],
                "contexts": [["The plan includes SAML SSO for every seat."]],
                "ground_truth": [ground_truth],
            }
        )
        out = df.rag.evaluate(model="offline", metrics=["context_recall"], progress=False)
        claims = len(out["context_recall_verdicts"].iloc[0])
        return float(out["context_recall"].iloc[0]), claims

    assert recall("The plan includes audit logs, SAML SSO, phone support and storage.") == (0.25, 4)
    assert recall("The plan includes audit logs, SAML SSO, phone support, and storage.") == (
        0.25,
        4,
    )
    assert recall("The plan includes SAML SSO and audit logs.")[1] == 1  # two items: one claim
