"""Amazon Mechanical Turk through boto3: sandbox unless live is chosen explicitly, twice.

Publishing sends an HTMLQuestion (the same page `hits serve` shows) whose form posts to the
environment's externalSubmit URL. Each CreateHIT carries a `UniqueRequestToken` stored with the
HIT before the call; after a crash the rerun gets MTurk's `AWS.MechanicalTurk.HitAlreadyExists`
error, whose message holds the HIT id, and records that HIT, so no HIT is published twice. MTurk
forgets a token after 24 hours, so a HIT first requested longer ago is looked up with ListHITs
(by its RequesterAnnotation, the same token) before it is created again.

Every call is retried with capped exponential backoff and jitter on throttling, server errors
(5xx, with or without an AWS error code: an HTML 503 from a load balancer arrives as code
'503'), refused or dropped connections and timeouts; when MTurk still fails, the error says
which command to rerun (nothing stored is lost or repeated).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import (
    ClientError,
    ConnectionError,
    HTTPClientError,
    NoCredentialsError,
    ProfileNotFound,
    SSLError,
)
from defusedxml import ElementTree as SafeET

from hits.backends import HitRequest
from hits.render import render_hit
from hits.store import Submission
from xel.config import Config, MturkConfig
from xel.errors import XelError
from xel.registry import crowd_backends
from xel.store import Store

ENDPOINTS = {
    "sandbox": "https://mturk-requester-sandbox.us-east-1.amazonaws.com",
    "live": "https://mturk-requester.us-east-1.amazonaws.com",
}
SUBMIT_URLS = {
    "sandbox": "https://workersandbox.mturk.com/mturk/externalSubmit",
    "live": "https://www.mturk.com/mturk/externalSubmit",
}
APPROVAL_RATE = "000000000000000000L0"
LOCALE = "00000000000000000071"
RETRIED = {"ThrottlingException", "ServiceFault", "ServiceUnavailable", "InternalFailure",
           "RequestLimitExceeded", "Throttling", "TooManyRequestsException"}
HIT_EXISTS = "aws.mechanicalturk.hitalreadyexists"
HIT_ID = re.compile(r"\b[A-Z0-9]{30}\b")  # MTurk HIT ids: 30 capitals and digits
# MTurk remembers a UniqueRequestToken for 24 hours; an hour's margin for clocks.
TOKEN_MEMORY = 23 * 3600.0
# What to rerun when an operation keeps failing (everything done before is stored).
RERUN = {
    "create_hit": "hits publish BATCH --backend mturk",
    "list_hits": "hits publish BATCH --backend mturk",
    "list_assignments_for_hit": "hits collect",
    "update_expiration_for_hit": "hits collect --expire",
    "create_additional_assignments_for_hit": "hits collect",
}
HTML_QUESTION = (
    '<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/'
    '2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[{html}]]></HTMLContent>'
    "<FrameHeight>0</FrameHeight></HTMLQuestion>"
)
DESCRIPTIONS = {
    "el": "Read short news passages and say which listed person each highlighted name is.",
    "name": "Find a person's name in translated sentences and copy it exactly as written.",
}


def html_question(html: str) -> str:
    """The HTMLQuestion XML; autoescaped pages cannot contain `]]>` from corpus text."""
    if "]]>" in html:
        raise XelError("a HIT page contains ']]>', which cannot go inside MTurk's CDATA")
    return HTML_QUESTION.format(html=html)


def qualifications(config: MturkConfig) -> list[dict[str, Any]]:
    """Approval rate, locale, and the custom qualifications that keep workers out."""
    guarded = {"ActionsGuarded": "DiscoverPreviewAndAccept"}
    found: list[dict[str, Any]] = []
    if config.min_approval_rate is not None:
        found.append({"QualificationTypeId": APPROVAL_RATE, "Comparator": "GreaterThanOrEqualTo",
                      "IntegerValues": [config.min_approval_rate], **guarded})
    if config.locales:
        found.append({"QualificationTypeId": LOCALE, "Comparator": "In",
                      "LocaleValues": [{"Country": c} for c in config.locales], **guarded})
    excluded = [*config.exclude_qualifications]
    if config.failed_gold_qualification:
        excluded.append(config.failed_gold_qualification)
    for qualification in dict.fromkeys(excluded):
        found.append({"QualificationTypeId": qualification, "Comparator": "DoesNotExist",
                      **guarded})
    return found


def parse_answer(xml: str) -> dict[str, str]:
    """MTurk's QuestionFormAnswers XML -> {field: value}; repeated fields are joined by `|`."""
    try:
        root = SafeET.fromstring(xml)
    except SafeET.ParseError as e:
        raise XelError(f"MTurk returned an Answer that is not XML ({e}): {xml[:200]!r}") from None
    answers: dict[str, str] = {}
    for node in root:
        if not node.tag.endswith("Answer"):
            continue
        key = value = ""
        for child in node:
            tag = child.tag.rsplit("}", 1)[-1]
            if tag == "QuestionIdentifier":
                key = (child.text or "").strip()
            elif tag in ("FreeText", "SelectionIdentifier"):
                value = child.text or ""
        if key:
            answers[key] = f"{answers[key]}|{value}" if key in answers else value
    return answers


def _epoch(value: Any) -> float | None:
    return value.timestamp() if isinstance(value, datetime) else None


def retryable(error: Exception) -> bool:
    """Throttling, server errors (5xx with or without an AWS code), connection failures and
    timeouts: worth another try. Client mistakes (a bad request, a HIT that does not exist) and
    certificate errors are not."""
    if isinstance(error, ClientError):
        code = str(error.response.get("Error", {}).get("Code", ""))
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
        return (code in RETRIED or int(status) >= 500 or int(status) == 429
                or (code.isdigit() and (int(code) >= 500 or int(code) == 429)))
    return isinstance(error, ConnectionError | HTTPClientError) and not isinstance(error, SSLError)


def already_created(error: ClientError) -> bool:
    """MTurk's answer to a CreateHIT whose UniqueRequestToken it has seen: a RequestError
    with TurkErrorCode AWS.MechanicalTurk.HitAlreadyExists and the HIT id in the message."""
    turk = str(error.response.get("TurkErrorCode", "")).lower()
    message = str(error.response.get("Error", {}).get("Message", ""))
    return turk == HIT_EXISTS or "already been processed" in message


def hit_id_in(error: ClientError) -> str | None:
    found = HIT_ID.search(str(error.response.get("Error", {}).get("Message", "")))
    return found.group() if found else None


class MturkBackend:
    name = "mturk"
    simulated = False

    def __init__(self, store: Store, config: Config, client: Any,
                 sleep: Callable[[float], None] = time.sleep, attempts: int = 6,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config
        self.settings = config.hits.mturk
        self.environment = self.settings.environment
        self.client = client
        self.sleep = sleep
        self.attempts = attempts
        self.clock = clock
        self.listed: dict[str, str] | None = None  # RequesterAnnotation -> HITId, once listed

    def backoff(self, attempt: int) -> float:
        """Seconds before retry `attempt` (0-based): 1, 2, 4, ... capped at 30, times a random
        factor in [0.5, 1) so that many clients do not retry in step."""
        return min(30.0, 2.0 ** attempt) * (0.5 + random.random() / 2)

    def call(self, operation: str, **params: Any) -> Any:
        """One MTurk call, retried on transient failures (`retryable`); other errors are raised
        at once, and a call still failing after `attempts` tries is an error naming the rerun."""
        for attempt in range(self.attempts):
            try:
                return getattr(self.client, operation)(**params)
            except NoCredentialsError:
                raise XelError(_NO_CREDENTIALS) from None
            except (ClientError, ConnectionError, HTTPClientError) as e:
                if not retryable(e):
                    raise
                if attempt == self.attempts - 1:
                    raise XelError(self._gave_up(operation, e)) from e
            self.sleep(self.backoff(attempt))
        raise AssertionError("unreachable")

    def _gave_up(self, operation: str, error: Exception) -> str:
        api = self.client.meta.method_to_api_mapping.get(operation, operation)
        rerun = RERUN.get(operation, "hits review --send")
        return (f"MTurk ({self.environment}) still failing after {self.attempts} tries of {api}: "
                f"{error}. Nothing is lost: every HIT, submission and payment MTurk confirmed "
                f"is stored. Rerun `{rerun}` (or `xel build`) when MTurk answers again; it goes "
                "on from there without repeating anything")

    def publish(self, hit: HitRequest) -> str:
        """Create the HIT, or find the one an earlier (crashed) run created with its token."""
        requested = self.store.scalar("SELECT requested_at FROM hit_requests WHERE hit_id = ?",
                                      (hit.hit_id,))
        now = self.clock()
        if requested is not None and now - requested > TOKEN_MEMORY:
            # MTurk may have forgotten the token: a plain retry could publish a duplicate.
            found = self.listed_hits().get(hit.token)
            if found is not None:
                return found
        with self.store.transaction():
            self.store.execute("INSERT OR REPLACE INTO hit_requests VALUES (?, ?)",
                               (hit.hit_id, now if requested is None or now - requested >
                                TOKEN_MEMORY else requested))
        html = render_hit(self.store, hit.hit_id, action=SUBMIT_URLS[self.environment],
                          mturk=True, max_description=self.config.hits.max_description)
        try:
            created = self.call(
                "create_hit",
                MaxAssignments=hit.assignments,
                AutoApprovalDelayInSeconds=int(self.settings.auto_approve_hours * 3600),
                LifetimeInSeconds=int(self.settings.lifetime_hours * 3600),
                AssignmentDurationInSeconds=int(self.settings.assignment_hours * 3600),
                Reward=f"{hit.reward:.2f}",
                Title=hit.title,
                Keywords=self.settings.keywords,
                Description=DESCRIPTIONS[hit.kind],
                Question=html_question(html),
                RequesterAnnotation=hit.token,
                QualificationRequirements=qualifications(self.settings),
                UniqueRequestToken=hit.token,
            )
        except ClientError as e:
            if not already_created(e):
                raise
            return hit_id_in(e) or self.find_hit(hit.token)
        return str(created["HIT"]["HITId"])

    def listed_hits(self) -> dict[str, str]:
        """Every HIT of this requester by RequesterAnnotation (our token), listed once."""
        if self.listed is None:
            found: dict[str, str] = {}
            params: dict[str, Any] = {"MaxResults": 100}
            while True:
                page = self.call("list_hits", **params)
                for h in page.get("HITs", []):
                    if h.get("RequesterAnnotation"):
                        found.setdefault(str(h["RequesterAnnotation"]), str(h["HITId"]))
                if not page.get("NextToken") or not page.get("HITs"):
                    break
                params["NextToken"] = page["NextToken"]
            self.listed = found
        return self.listed

    def find_hit(self, token: str) -> str:
        """The HIT created earlier with this token, when MTurk's error did not name it."""
        self.listed = None
        found = self.listed_hits().get(token)
        if found is None:
            raise XelError(
                f"MTurk says a HIT with token {token} exists but it is not in ListHITs: "
                "it may have been deleted; make a new batch"
            )
        return found

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        params: dict[str, Any] = {
            "HITId": external_id, "MaxResults": 100,
            "AssignmentStatuses": ["Submitted", "Approved", "Rejected"],
        }
        while True:
            page = self.call("list_assignments_for_hit", **params)
            yield [
                Submission(
                    assignment_id=a["AssignmentId"], worker=a["WorkerId"],
                    answers=parse_answer(a["Answer"]),
                    submitted_at=_epoch(a.get("SubmitTime")) or time.time(),
                    accepted_at=_epoch(a.get("AcceptTime")), raw=a["Answer"],
                )
                for a in page.get("Assignments", [])
            ]
            if not page.get("NextToken") or not page.get("Assignments"):
                return
            params["NextToken"] = page["NextToken"]

    def _settle(self, operation: str, assignment_id: str, wanted: str, **params: Any) -> None:
        """Approve or reject; if MTurk refuses because it was already done, that is success."""
        try:
            self.call(operation, AssignmentId=assignment_id, **params)
        except ClientError:
            status = self.call("get_assignment", AssignmentId=assignment_id)
            if status["Assignment"]["AssignmentStatus"] != wanted:
                raise

    def approve(self, assignment_id: str, feedback: str) -> None:
        self._settle("approve_assignment", assignment_id, "Approved", RequesterFeedback=feedback)

    def reject(self, assignment_id: str, feedback: str) -> None:
        self._settle("reject_assignment", assignment_id, "Rejected", RequesterFeedback=feedback)

    def block(self, worker: str, reason: str) -> None:
        """Keep a worker dropped on gold out of later HITs: grant the configured
        `failed_gold_qualification` (which HITs require not to exist), else block outright."""
        if self.settings.failed_gold_qualification:
            self.call("associate_qualification_with_worker",
                      QualificationTypeId=self.settings.failed_gold_qualification,
                      WorkerId=worker, IntegerValue=1, SendNotification=False)
        else:
            self.call("create_worker_block", WorkerId=worker, Reason=reason)

    def bonus(self, worker: str, assignment_id: str, amount: float, reason: str,
              token: str) -> None:
        self.call("send_bonus", WorkerId=worker, AssignmentId=assignment_id,
                  BonusAmount=f"{amount:.2f}", Reason=reason, UniqueRequestToken=token)

    def expire(self, external_id: str) -> None:
        self.call("update_expiration_for_hit", HITId=external_id,
                  ExpireAt=datetime(2015, 1, 1, tzinfo=UTC))

    def extend(self, external_id: str, hit_id: str, assignments: int, token: str) -> None:
        """CreateAdditionalAssignmentsForHIT for one more worker, with the extension's
        UniqueRequestToken: a retry of a call MTurk already performed is refused as already
        processed, which is success."""
        try:
            self.call("create_additional_assignments_for_hit", HITId=external_id,
                      NumberOfAdditionalAssignments=1, UniqueRequestToken=token)
        except ClientError as e:
            message = str(e.response.get("Error", {}).get("Message", ""))
            if "already been processed" not in message and "already" not in message.lower():
                raise


_NO_CREDENTIALS = (
    "no AWS credentials for MTurk: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or name a "
    "profile in hits.mturk.profile (~/.aws/credentials)"
)


def mturk_client(settings: MturkConfig) -> Any:
    """A boto3 MTurk client for the configured environment, with botocore's own retries off
    (ours back off instead); an error if no credentials are configured."""
    import boto3
    from botocore.config import Config as BotoConfig

    try:
        session = boto3.Session(profile_name=settings.profile)
    except ProfileNotFound:
        raise XelError(
            f"AWS profile {settings.profile!r} not found (hits.mturk.profile): add it to "
            "~/.aws/credentials or remove the setting"
        ) from None
    if session.get_credentials() is None:
        raise XelError(_NO_CREDENTIALS)
    return session.client(
        "mturk", region_name=settings.region, endpoint_url=ENDPOINTS[settings.environment],
        config=BotoConfig(retries={"total_max_attempts": 1}),
    )


def check_environment(settings: MturkConfig, live: bool) -> None:
    """Live only when the config *and* the command line say so; never one without the other."""
    if settings.environment == "live" and not live:
        raise XelError(
            "hits.mturk.environment is 'live' (real money): pass --live to confirm (`xel "
            "build --live`, `hits publish --live`, ...), or set environment: sandbox"
        )
    if live and settings.environment != "live":
        raise XelError(
            "--live given but hits.mturk.environment is 'sandbox': set environment: live in "
            "the config as well, so sandbox and live are never confused"
        )


@crowd_backends.register("mturk")
def mturk_backend(store: Store, config: Config, *, live: bool = False, client: Any = None,
                  sleep: Callable[[float], None] = time.sleep, **options: Any) -> MturkBackend:
    check_environment(config.hits.mturk, live)
    return MturkBackend(store, config, client or mturk_client(config.hits.mturk), sleep)
