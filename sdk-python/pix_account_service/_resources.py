# Generated from the service's OpenAPI document by sdk/scripts/generate-python.ts: run `npm run sdk:python`, do not edit.

from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterator, Dict, List, Literal, Mapping, cast

from ._core import SyncPager, SyncResource, Operation, ServerSentEvent, decode, decode_as, encode, encode_object
from .models import Money, MoneyText, HealthResponse, ReadyResponse, ReadyResponseChecks, JwksResponse, JwksResponseKeysItem, OauthMetadataResponse, CreateTokenBody, CreateTokenResponse, GetBalanceResponse, CreateCashInBody, CreateCashInBodyTransaction, CreateCashInBodyPayer, CreateCashInBodySplitsItem, CreateCashInResponse, CreateCashOutBody, CreateCashOutBodyDetails, CreateCashOutResponse, CreateCashOutQrCodeBody, CreateCashOutQrCodeResponse, ListTransactionsResponse, ListTransactionsResponseDataItem, ListTransactionsResponseDataItemCounterpart, ListTransactionsResponseDataItemCounterpartBank, ListTransactionsResponseMetadata, GetTransactionResponse, CreateRefundInBody, CreateRefundInResponse, ListMedResponse, Med, MedRequestingBank, MedContestedBank, MedTransaction, ListMedResponseMetadata, ListWebhooksResponse, ListWebhooksResponseWebhooksItem, RegisterWebhookResponse, ResendWebhookBody, ResendWebhookResponse, ListEventsResponse, ListEventsResponseDataItem, ListEventsResponseMetadata, GetEventResponse, ReplayWebhookDeliveriesBody, ReplayWebhookDeliveriesResponse, GetBalancesResponse, GetBalancesResponseDataItem, GetBalancesResponseDataItemBalanceAmount, CreateDictTransferBody, CreateDictTransferBodyPayment, CreateDictTransferResponse, CreateDictTransferResponsePayment, GetDictTransferResponse, GetDictTransferResponsePayment, GetCobResponse, GetCobResponseCalendario, GetCobResponseLoc, GetCobResponseDevedor, GetCobResponseValor, GetCobResponseInfoAdicionaisItem, GetCobResponsePixItem, Devolucao, DevolucaoHorario, PutCobBody, PutCobBodyCalendario, PutCobBodyDevedor, PutCobBodyValor, PutCobBodyInfoAdicionaisItem, PutCobResponse, PutCobResponseCalendario, PutCobResponseLoc, PutCobResponseDevedor, PutCobResponseValor, PutCobResponseInfoAdicionaisItem, PutCobResponsePixItem, PatchCobBody, PatchCobResponse, PatchCobResponseCalendario, PatchCobResponseLoc, PatchCobResponseDevedor, PatchCobResponseValor, PatchCobResponseInfoAdicionaisItem, PatchCobResponsePixItem, GetDevolucaoResponse, GetDevolucaoResponseHorario, PutDevolucaoBody, PutDevolucaoResponse, PutDevolucaoResponseHorario, OauthTokenBody, OauthTokenResponse, ListAccountsResponse, ListAccountsResponseDataItem, ListAccountsResponseDataItemBalance, ListAccountsResponseMetadata, CreateAccountBody, CreateAccountResponse, GetAccountResponse, GetAccountResponseBalance, GetAccountResponseLimits, GetAccountResponseFees, GetAccountResponseFeesCashIn, GetAccountResponseFeesCashOut, UpdateAccountBody, UpdateAccountResponse, UpdateAccountResponseBalance, UpdateAccountResponseLimits, UpdateAccountResponseFees, UpdateAccountResponseFeesCashIn, UpdateAccountResponseFeesCashOut, ListCertificatesResponse, ListCertificatesResponseDataItem, ListCertificatesResponseMetadata, RegisterCertificateBody, RegisterCertificateResponse, ListCredentialsResponse, ListCredentialsResponseDataItem, ListCredentialsResponseMetadata, CreateCredentialsBody, CreateCredentialsResponse, UpdateLimitsBody, UpdateLimitsResponse, UpdateFeesBody, UpdateFeesBodyCashIn, UpdateFeesBodyCashOut, UpdateFeesResponse, UpdateFeesResponseCashIn, UpdateFeesResponseCashOut, UpdateSplitFrequencyBody, UpdateSplitFrequencyResponse, ListAccountWebhooksResponse, ListAccountWebhooksResponseDataItem, ListAccountWebhooksResponseMetadata, RegisterAccountWebhookBody, RegisterAccountWebhookBodyHeadersItem, RegisterAccountWebhookResponse, GetWebhookSecretResponse, LedgerCheckResponse, LedgerCheckResponsePostings, LedgerCheckResponseUnbalancedJournals, LedgerCheckResponseUnbalancedJournalsItemsItem, LedgerCheckResponseDrift, LedgerCheckResponseDriftItemsItem, LedgerCheckResponseNegativeBalances, LedgerCheckResponseNegativeBalancesItemsItem, LedgerCheckResponseSystemAccountsItem, NetworkStatusResponse, NetworkStatusResponsePayoutsAwaitingOutcome, NetworkStatusResponseSuspense, NetworkStatusResponseProvider, NetworkStatusResponseProviderCircuit, NetworkStatusResponseProviderToken, NetworkStatusResponseProviderLastNotice, NetworkStatusResponseProviderLastStatementCheck, ListSuspenseResponse, ListSuspenseResponseDataItem, ListSuspenseResponseDataItemPayer, ListSuspenseResponseMetadata, AssignSuspenseBody, AssignSuspenseResponse, AssignSuspenseResponsePayer, RunStatementCheckResponse, ListOperatorsResponse, ListOperatorsResponseDataItem, ListOperatorsResponseMetadata, CreateOperatorBody, CreateOperatorResponse, ListMembersResponse, ListMembersResponseDataItem, ListMembersResponseMetadata, InviteMemberBody, InviteMemberResponse, ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponseDataItem, ListWebhookDeliveriesResponseMetadata, RotateWebhookSecretResponse, SendTestWebhookBody, SendTestWebhookResponse, SendTestWebhookResponseAttemptsItem, RotateSigningKeyResponse, SuspendAccountResponse, SuspendAccountResponseBalance, SuspendAccountResponseLimits, SuspendAccountResponseFees, SuspendAccountResponseFeesCashIn, SuspendAccountResponseFeesCashOut, ReactivateAccountResponse, ReactivateAccountResponseBalance, ReactivateAccountResponseLimits, ReactivateAccountResponseFees, ReactivateAccountResponseFeesCashIn, ReactivateAccountResponseFeesCashOut, ListAccountEventsResponse, ListAccountEventsResponseDataItem, ListAccountEventsResponseMetadata, GetAccountEventResponse, ReplayAccountDeliveriesBody, ReplayAccountDeliveriesResponse, CreateDepositBody, CreateDepositBodyPayer, CreateDepositResponse, RefundPayoutBody, RefundPayoutResponse, RegisterDictKeyBody, RegisterDictKeyResponse, AdvanceClockBody, AdvanceClockResponse, PayChargeBody, PayChargeBodyPayer, PayChargeResponse, OpenMedBody, OpenMedResponse, OpenMedResponseRequestingBank, OpenMedResponseContestedBank, OpenMedResponseTransaction, TransitionMedBody, TransitionMedResponse, TransitionMedResponseRequestingBank, TransitionMedResponseContestedBank, TransitionMedResponseTransaction, ListTestClocksResponse, TestClock, ListTestClocksResponseMetadata, CreateTestClockBody, CreateTestClockResponse, GetTestClockResponse, AdvanceTestClockBody, AdvanceTestClockResponse, TransactionEvent, TransactionEventCounterpart, TransactionEventCounterpartBank, TransactionEventParentTransaction, TransactionEventParentTransactionCounterpart, TransactionEventParentTransactionCounterpartBank, ReceiveEvent, ReceiveEventData, ReceiveEventDataPayment, ReceiveEventDataDebtorAccount, TransferEvent, TransferEventData, TransferEventDataPayment, TransferEventDataCreditorAccount, RefundEvent, RefundEventData, RefundEventDataPayment, RefundEventDataRefundsItem, RefundEventDataRefundsItemPayment, MedEvent, MedEventMed, MedEventMedRequestingBank, MedEventMedContestedBank, MedEventMedTransaction  # noqa: F401

__all__ = ["LocationResource", "TokenResource", "BalanceResource", "ChargesResource", "CashOutResource", "CashOutQrCodeResource", "TransactionsResource", "RefundsResource", "MedResource", "WebhooksResource", "EventsResource", "WebhookDeliveriesResource", "BalancesResource", "DictPixResource", "CobResource", "DevolucaoResource", "SandboxResource", "PixOperations", "AdminLocationResource", "AdminTokenResource", "AdminAccountsResource", "AdminCertificatesResource", "AdminCredentialsResource", "AdminLimitsResource", "AdminFeesResource", "AdminSplitFrequencyResource", "AdminAccountWebhooksResource", "AdminWebhookResource", "AdminWebhookSecretResource", "AdminSuspenseResource", "AdminStatementCheckResource", "AdminOperatorsResource", "AdminMembersResource", "AdminWebhookDeliveriesResource", "AdminTestWebhookResource", "AdminSigningKeyResource", "AdminAccountEventsResource", "AdminAccountDeliveriesResource", "AdminSandboxResource", "AdminOperations"]

_OPERATIONS: Dict[str, Operation] = {
    "health": Operation(method="GET", path="/health", security=(), result="json"),
    "ready": Operation(method="GET", path="/ready", security=(), result="json"),
    "metrics": Operation(method="GET", path="/metrics", security=(), result="text"),
    "openapi": Operation(method="GET", path="/openapi.json", security=(), result="json"),
    "jwks": Operation(method="GET", path="/.well-known/jwks.json", security=(), result="json"),
    "oauthMetadata": Operation(method="GET", path="/.well-known/oauth-authorization-server", security=(), result="json"),
    "getLocation": Operation(method="GET", path="/qr/v2/{locationId}", security=(), result="text"),
    "createToken": Operation(method="POST", path="/api/auth/token", security=(), result="json"),
    "getBalance": Operation(method="GET", path="/api/balance", security=("bearer", ), result="json"),
    "createCashIn": Operation(method="POST", path="/api/pix/cash-in", security=("bearer", ), result="json", external_id_path=("transaction", "externalId", ), answer_fields=("transactionId", "correlationId", "externalId", "status", "pixCode", "generateTime", "expirationDate", )),
    "createCashOut": Operation(method="POST", path="/api/pix/cash-out", security=("bearer", ), result="json", external_id_path=("externalId", ), answer_fields=("transactionId", "externalId", "status", "generateTime", )),
    "createCashOutQrCode": Operation(method="POST", path="/api/pix/cash-out-qrcode", security=("bearer", ), result="json", external_id_path=("externalId", ), answer_fields=("transactionId", "externalId", "status", "generateTime", )),
    "listTransactions": Operation(method="GET", path="/api/transactions", security=("bearer", ), result="json"),
    "getTransaction": Operation(method="GET", path="/api/pix/transaction/{id}", security=("bearer", ), result="json"),
    "createRefundIn": Operation(method="POST", path="/api/pix/refund-in/{id}", security=("bearer", ), result="json", external_id_path=("externalId", ), answer_fields=("transactionId", "externalId", "status", "refundValue", "providerTransactionId", "generateTime", )),
    "listMed": Operation(method="GET", path="/api/med", security=("bearer", ), result="json"),
    "listWebhooks": Operation(method="GET", path="/api/webhooks", security=("bearer", ), result="json"),
    "registerWebhook": Operation(method="POST", path="/api/webhooks", security=("bearer", ), result="json"),
    "unregisterWebhook": Operation(method="DELETE", path="/api/webhooks/{id}", security=("bearer", ), result="empty"),
    "resendWebhook": Operation(method="POST", path="/api/resend-webhook/{transactionIdentifier}", security=("bearer", ), result="json"),
    "listEvents": Operation(method="GET", path="/api/events", security=("bearer", ), result="json"),
    "streamEvents": Operation(method="GET", path="/api/events/stream", security=("bearer", ), result="events"),
    "getEvent": Operation(method="GET", path="/api/events/{id}", security=("bearer", ), result="json"),
    "replayWebhookDeliveries": Operation(method="POST", path="/api/webhook-deliveries/replay", security=("bearer", ), result="json"),
    "getBalances": Operation(method="GET", path="/accounts/balances", security=("bearer", ), result="json"),
    "createDictTransfer": Operation(method="POST", path="/dict/pix", security=("bearer", ), result="json", idempotency_key=True),
    "getDictTransfer": Operation(method="GET", path="/dict/pix/{id}", security=("bearer", ), result="json"),
    "getCob": Operation(method="GET", path="/cob/{txid}", security=("bearer", ), result="json"),
    "putCob": Operation(method="PUT", path="/cob/{txid}", security=("bearer", ), result="json"),
    "patchCob": Operation(method="PATCH", path="/cob/{txid}", security=("bearer", ), result="json"),
    "getDevolucao": Operation(method="GET", path="/pix/{e2eid}/devolucao/{id}", security=("bearer", ), result="json"),
    "putDevolucao": Operation(method="PUT", path="/pix/{e2eid}/devolucao/{id}", security=("bearer", ), result="json"),
    "oauthToken": Operation(method="POST", path="/oauth/token", security=("clientBasic", ), result="json"),
    "listAccounts": Operation(method="GET", path="/admin/accounts", security=("admin", ), result="json"),
    "createAccount": Operation(method="POST", path="/admin/accounts", security=("admin", ), result="json"),
    "getAccount": Operation(method="GET", path="/admin/accounts/{id}", security=("admin", ), result="json"),
    "updateAccount": Operation(method="PATCH", path="/admin/accounts/{id}", security=("admin", ), result="json"),
    "listCertificates": Operation(method="GET", path="/admin/accounts/{id}/certificates", security=("admin", ), result="json"),
    "registerCertificate": Operation(method="POST", path="/admin/accounts/{id}/certificates", security=("admin", ), result="json"),
    "revokeCertificate": Operation(method="DELETE", path="/admin/certificates/{fingerprint}", security=("admin", ), result="empty"),
    "listCredentials": Operation(method="GET", path="/admin/accounts/{id}/credentials", security=("admin", ), result="json"),
    "createCredentials": Operation(method="POST", path="/admin/accounts/{id}/credentials", security=("admin", ), result="json"),
    "updateLimits": Operation(method="PATCH", path="/admin/accounts/{id}/limits", security=("admin", ), result="json"),
    "updateFees": Operation(method="PATCH", path="/admin/accounts/{id}/fees", security=("admin", ), result="json"),
    "updateSplitFrequency": Operation(method="PATCH", path="/admin/accounts/{id}/split-frequency", security=("admin", ), result="json"),
    "listAccountWebhooks": Operation(method="GET", path="/admin/accounts/{id}/webhooks", security=("admin", ), result="json"),
    "registerAccountWebhook": Operation(method="POST", path="/admin/accounts/{id}/webhooks", security=("admin", ), result="json"),
    "deleteWebhook": Operation(method="DELETE", path="/admin/webhooks/{id}", security=("admin", ), result="empty"),
    "getWebhookSecret": Operation(method="GET", path="/admin/accounts/{id}/webhook-secret", security=("admin", ), result="json"),
    "ledgerCheck": Operation(method="GET", path="/admin/ledger/check", security=("admin", ), result="json"),
    "networkStatus": Operation(method="GET", path="/admin/network/status", security=("admin", ), result="json"),
    "listSuspense": Operation(method="GET", path="/admin/network/suspense", security=("admin", ), result="json"),
    "assignSuspense": Operation(method="POST", path="/admin/network/suspense/{id}/assign", security=("admin", ), result="json"),
    "runStatementCheck": Operation(method="POST", path="/admin/network/statement-check", security=("admin", ), result="json"),
    "listOperators": Operation(method="GET", path="/admin/operators", security=("admin", ), result="json"),
    "createOperator": Operation(method="POST", path="/admin/operators", security=("admin", ), result="json"),
    "listMembers": Operation(method="GET", path="/admin/accounts/{id}/members", security=("admin", ), result="json"),
    "inviteMember": Operation(method="POST", path="/admin/accounts/{id}/members", security=("admin", ), result="json"),
    "revokeCredential": Operation(method="DELETE", path="/admin/accounts/{id}/credentials/{clientId}", security=("admin", ), result="empty"),
    "removeMember": Operation(method="DELETE", path="/admin/accounts/{id}/members/{memberId}", security=("admin", ), result="empty"),
    "listWebhookDeliveries": Operation(method="GET", path="/admin/accounts/{id}/webhook-deliveries", security=("admin", ), result="json"),
    "rotateWebhookSecret": Operation(method="POST", path="/admin/accounts/{id}/webhook-secret/rotate", security=("admin", ), result="json"),
    "sendTestWebhook": Operation(method="POST", path="/admin/accounts/{id}/webhooks/test", security=("admin", ), result="json"),
    "rotateSigningKey": Operation(method="POST", path="/admin/signing-keys/rotate", security=("admin", ), result="json"),
    "removeOperator": Operation(method="DELETE", path="/admin/operators/{id}", security=("admin", ), result="empty"),
    "suspendAccount": Operation(method="POST", path="/admin/accounts/{id}/suspend", security=("admin", ), result="json"),
    "reactivateAccount": Operation(method="POST", path="/admin/accounts/{id}/reactivate", security=("admin", ), result="json"),
    "listAccountEvents": Operation(method="GET", path="/admin/accounts/{id}/events", security=("admin", ), result="json"),
    "streamAccountEvents": Operation(method="GET", path="/admin/accounts/{id}/events/stream", security=("admin", ), result="events"),
    "getAccountEvent": Operation(method="GET", path="/admin/accounts/{id}/events/{eventId}", security=("admin", ), result="json"),
    "replayAccountDeliveries": Operation(method="POST", path="/admin/accounts/{id}/webhook-deliveries/replay", security=("admin", ), result="json"),
    "createDeposit": Operation(method="POST", path="/sandbox/deposits", security=("admin", "bearer", ), result="json"),
    "refundPayout": Operation(method="POST", path="/sandbox/payouts/{transactionId}/refund", security=("admin", "bearer", ), result="json"),
    "registerDictKey": Operation(method="POST", path="/sandbox/dict/keys", security=("admin", "bearer", ), result="json"),
    "advanceClock": Operation(method="POST", path="/sandbox/clock/advance", security=("admin", "bearer", ), result="json"),
    "payCharge": Operation(method="POST", path="/sandbox/charges/{id}/pay", security=("admin", "bearer", ), result="json"),
    "openMed": Operation(method="POST", path="/sandbox/med", security=("admin", "bearer", ), result="json"),
    "transitionMed": Operation(method="POST", path="/sandbox/med/{id}/transition", security=("admin", "bearer", ), result="json"),
    "listTestClocks": Operation(method="GET", path="/sandbox/test-clocks", security=("admin", "bearer", ), result="json"),
    "createTestClock": Operation(method="POST", path="/sandbox/test-clocks", security=("admin", "bearer", ), result="json"),
    "getTestClock": Operation(method="GET", path="/sandbox/test-clocks/{id}", security=("admin", "bearer", ), result="json"),
    "deleteTestClock": Operation(method="DELETE", path="/sandbox/test-clocks/{id}", security=("admin", "bearer", ), result="empty"),
    "advanceTestClock": Operation(method="POST", path="/sandbox/test-clocks/{id}/advance", security=("admin", "bearer", ), result="json"),
}


class LocationResource(SyncResource):
    """The `location` operations."""

    def get(self, location_id: str | int | float) -> str:
        """GET /qr/v2/{locationId}: Charge payload (JWS) behind a dynamic BR Code"""
        return str(self._client.request(_OPERATIONS["getLocation"], path={"locationId": location_id}))


class TokenResource(SyncResource):
    """The `token` operations."""

    def create(self, *, client_id: str, client_secret: str) -> CreateTokenResponse:
        """POST /api/auth/token: Exchange a client certificate and client credentials for an access token"""
        return decode(self._client.request(_OPERATIONS["createToken"], json=encode_object(CreateTokenBody, {"client_id": client_id, "client_secret": client_secret})), CreateTokenResponse)


class BalanceResource(SyncResource):
    """The `balance` operations."""

    def get(self) -> GetBalanceResponse:
        """GET /api/balance: Account balance"""
        return decode(self._client.request(_OPERATIONS["getBalance"]), GetBalanceResponse)


class ChargesResource(SyncResource):
    """The `charges` operations."""

    def create(self, *, transaction: CreateCashInBodyTransaction, payer: CreateCashInBodyPayer, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, additional_info: Dict[str, str] | None = None, splits: List[CreateCashInBodySplitsItem] | None = None) -> CreateCashInResponse:
        """POST /api/pix/cash-in: Create a receiving charge (dynamic BR Code)"""
        return decode(self._client.request(_OPERATIONS["createCashIn"], headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(CreateCashInBody, {"transaction": transaction, "payer": payer, "additional_info": additional_info, "splits": splits})), CreateCashInResponse)


class CashOutResource(SyncResource):
    """The `cash_out` operations."""

    def create(self, *, value: Money, external_id: str, details: CreateCashOutBodyDetails, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, description: str | None = None) -> CreateCashOutResponse:
        """POST /api/pix/cash-out: Send a PIX payment to a key (the final status arrives by webhook or polling)"""
        return decode(self._client.request(_OPERATIONS["createCashOut"], headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(CreateCashOutBody, {"value": value, "external_id": external_id, "description": description, "details": details})), CreateCashOutResponse)


class CashOutQrCodeResource(SyncResource):
    """The `cash_out_qr_code` operations."""

    def create(self, *, value: Money, qr_code: str, external_id: str, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, description: str | None = None, name: str | None = None, document: str | None = None) -> CreateCashOutQrCodeResponse:
        """POST /api/pix/cash-out-qrcode: Pay a PIX QR code (static: its key; dynamic: its charge)"""
        return decode(self._client.request(_OPERATIONS["createCashOutQrCode"], headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(CreateCashOutQrCodeBody, {"value": value, "qr_code": qr_code, "external_id": external_id, "description": description, "name": name, "document": document})), CreateCashOutQrCodeResponse)


class TransactionsResource(SyncResource):
    """The `transactions` operations."""

    def list(self, *, size: int | None = None, status: Literal["PENDING", "CONFIRMED", "ERROR"] | None = None, type: Literal["PAYMENT", "WITHDRAW", "REFUND_IN", "REFUND_OUT"] | None = None, start_date: str | None = None, end_date: str | None = None, external_id: str | None = None, end_to_end_id: str | None = None, page: int | None = None) -> SyncPager[ListTransactionsResponse, ListTransactionsResponseDataItem]:
        """GET /api/transactions: The account's transactions, newest first (UTC dates, both ends inclusive, at most 31 days)"""
        def fetch(cursor: str | int | None) -> ListTransactionsResponse:
            return decode(self._client.request(_OPERATIONS["listTransactions"], query={"size": size, "status": status, "type": type, "startDate": start_date, "endDate": end_date, "externalId": external_id, "endToEndId": end_to_end_id, "page": cursor}), ListTransactionsResponse)
        return SyncPager(fetch, "page", page)

    def get(self, id: str | int | float) -> GetTransactionResponse:
        """GET /api/pix/transaction/{id}: Poll one transaction by numeric id, transactionId or externalId"""
        return decode(self._client.request(_OPERATIONS["getTransaction"], path={"id": id}), GetTransactionResponse)


class RefundsResource(SyncResource):
    """The `refunds` operations."""

    def create(self, id: str | int | float, *, refund_value: Money, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, reason: str | None = None, external_id: str | None = None) -> CreateRefundInResponse:
        """POST /api/pix/refund-in/{id}: Refund a received PIX (refund-in)"""
        return decode(self._client.request(_OPERATIONS["createRefundIn"], path={"id": id}, headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(CreateRefundInBody, {"refund_value": refund_value, "reason": reason, "external_id": external_id})), CreateRefundInResponse)


class MedResource(SyncResource):
    """The `med` operations."""

    def list(self, *, status: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"] | None = None, is_reconciled: bool | None = None, start_date: str | None = None, end_date: str | None = None, page_size: int | None = None, page: int | None = None) -> SyncPager[ListMedResponse, Med]:
        """GET /api/med: List MEDs (Special Refund Mechanism)"""
        def fetch(cursor: str | int | None) -> ListMedResponse:
            return decode(self._client.request(_OPERATIONS["listMed"], query={"status": status, "isReconciled": is_reconciled, "startDate": start_date, "endDate": end_date, "pageSize": page_size, "page": cursor}), ListMedResponse)
        return SyncPager(fetch, "page", page)


class WebhooksResource(SyncResource):
    """The `webhooks` operations."""

    def list(self) -> ListWebhooksResponse:
        """GET /api/webhooks: Temporarily disabled: answers an empty list (WEBHOOK_ROUTES_ENABLED=true enables it)"""
        return decode(self._client.request(_OPERATIONS["listWebhooks"]), ListWebhooksResponse)

    def create(self) -> RegisterWebhookResponse:
        """POST /api/webhooks: Temporarily disabled: answers success false and stores nothing (WEBHOOK_ROUTES_ENABLED=true enables it)"""
        return decode(self._client.request(_OPERATIONS["registerWebhook"]), RegisterWebhookResponse)

    def delete(self, id: str | int | float) -> None:
        """DELETE /api/webhooks/{id}: Temporarily disabled with the other webhook routes: answers 404 (WEBHOOK_ROUTES_ENABLED=true enables it)"""
        self._client.request(_OPERATIONS["unregisterWebhook"], path={"id": id})

    def resend(self, transaction_identifier: str | int | float, *, url: str | None = None) -> ResendWebhookResponse:
        """POST /api/resend-webhook/{transactionIdentifier}: Resend a transaction's latest webhook now (to its event's URLs, or once to the given url)"""
        return decode(self._client.request(_OPERATIONS["resendWebhook"], path={"transactionIdentifier": transaction_identifier}, json=encode_object(ResendWebhookBody, {"url": url})), ResendWebhookResponse)


class EventsResource(SyncResource):
    """The `events` operations."""

    def list(self, *, type: str | None = None, size: int | None = None, after: str | None = None) -> SyncPager[ListEventsResponse, ListEventsResponseDataItem]:
        """GET /api/events: The account's events, oldest first, after a cursor; each payload exactly as its webhook carried it"""
        def fetch(cursor: str | int | None) -> ListEventsResponse:
            return decode(self._client.request(_OPERATIONS["listEvents"], query={"type": type, "size": size, "after": cursor}), ListEventsResponse)
        return SyncPager(fetch, "after", after)

    def stream(self, *, type: str | None = None, last_event_id: str | None = None) -> Iterator[ServerSentEvent]:
        """GET /api/events/stream: The account's events live (Server-Sent Events); resumable with Last-Event-ID"""
        return self._client.stream(_OPERATIONS["streamEvents"], headers={"last-event-id": last_event_id}, query={"type": type})

    def get(self, id: str | int | float) -> GetEventResponse:
        """GET /api/events/{id}: One event of the account, its payload exactly as its webhook carried it"""
        return decode(self._client.request(_OPERATIONS["getEvent"], path={"id": id}), GetEventResponse)


class WebhookDeliveriesResource(SyncResource):
    """The `webhook_deliveries` operations."""

    def replay(self, *, since: str, status: Literal["failed", "all"], type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"] | None = None) -> ReplayWebhookDeliveriesResponse:
        """POST /api/webhook-deliveries/replay: Queue the account's webhook deliveries since a time again (failed ones, or all), to its active URLs"""
        return decode(self._client.request(_OPERATIONS["replayWebhookDeliveries"], json=encode_object(ReplayWebhookDeliveriesBody, {"since": since, "status": status, "type": type})), ReplayWebhookDeliveriesResponse)


class BalancesResource(SyncResource):
    """The `balances` operations."""

    def get(self) -> GetBalancesResponse:
        """GET /accounts/balances: Account balance (compatible shape)"""
        return decode(self._client.request(_OPERATIONS["getBalances"]), GetBalancesResponse)


class DictPixResource(SyncResource):
    """The `dict_pix` operations."""

    def create(self, *, pix_key: str, payment: CreateDictTransferBodyPayment, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, creditor_document: str | None = None, priority: Literal["HIGH", "NORM"] | None = None, description: str | None = None, expiration: int | None = None, ispb_deny: List[str] | None = None, payment_flow: str | None = None, idempotency_key: str | None = None) -> CreateDictTransferResponse:
        """POST /dict/pix: Start a PIX transfer to a key (idempotent by x-idempotency-key)"""
        return decode(self._client.request(_OPERATIONS["createDictTransfer"], headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(CreateDictTransferBody, {"pix_key": pix_key, "creditor_document": creditor_document, "priority": priority, "description": description, "expiration": expiration, "payment": payment, "ispb_deny": ispb_deny, "payment_flow": payment_flow}), idempotency_key=idempotency_key), CreateDictTransferResponse)

    def get(self, id: str | int | float) -> GetDictTransferResponse:
        """GET /dict/pix/{id}: A transfer started with POST /dict/pix"""
        return decode(self._client.request(_OPERATIONS["getDictTransfer"], path={"id": id}), GetDictTransferResponse)


class CobResource(SyncResource):
    """The `cob` operations."""

    def get(self, txid: str | int | float) -> GetCobResponse:
        """GET /cob/{txid}: Read an immediate charge"""
        return decode(self._client.request(_OPERATIONS["getCob"], path={"txid": txid}), GetCobResponse)

    def put(self, txid: str | int | float, *, calendario: PutCobBodyCalendario, valor: PutCobBodyValor, chave: str, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, devedor: PutCobBodyDevedor | None = None, solicitacao_pagador: str | None = None, info_adicionais: List[PutCobBodyInfoAdicionaisItem] | None = None) -> PutCobResponse:
        """PUT /cob/{txid}: Create an immediate charge"""
        return decode(self._client.request(_OPERATIONS["putCob"], path={"txid": txid}, headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(PutCobBody, {"calendario": calendario, "devedor": devedor, "valor": valor, "chave": chave, "solicitacao_pagador": solicitacao_pagador, "info_adicionais": info_adicionais})), PutCobResponse)

    def patch(self, txid: str | int | float, *, status: Literal["REMOVIDA_PELO_USUARIO_RECEBEDOR"]) -> PatchCobResponse:
        """PATCH /cob/{txid}: Cancel an immediate charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR)"""
        return decode(self._client.request(_OPERATIONS["patchCob"], path={"txid": txid}, json=encode_object(PatchCobBody, {"status": status})), PatchCobResponse)


class DevolucaoResource(SyncResource):
    """The `devolucao` operations."""

    def get(self, e2eid: str | int | float, id: str | int | float) -> GetDevolucaoResponse:
        """GET /pix/{e2eid}/devolucao/{id}: Look up a refund of a received PIX"""
        return decode(self._client.request(_OPERATIONS["getDevolucao"], path={"e2eid": e2eid, "id": id}), GetDevolucaoResponse)

    def put(self, e2eid: str | int | float, id: str | int | float, *, valor: MoneyText, sandbox_scenario: Literal["success", "pending", "error:insufficient-funds", "error:invalid-pix-key", "error:document-mismatch", "error:account-blocked", "error:duplicate-id", "error:invalid-tax-id", "error:account-closed", "error:order-rejected", "error:payment-expired", "error:settlement-timeout", "error:provider-unavailable"] | str | None = None, natureza: Literal["ORIGINAL", "RETIRADA"] | None = None, descricao: str | None = None) -> PutDevolucaoResponse:
        """PUT /pix/{e2eid}/devolucao/{id}: Ask for a refund of a received PIX"""
        return decode(self._client.request(_OPERATIONS["putDevolucao"], path={"e2eid": e2eid, "id": id}, headers={"x-sandbox-scenario": sandbox_scenario}, json=encode_object(PutDevolucaoBody, {"valor": valor, "natureza": natureza, "descricao": descricao})), PutDevolucaoResponse)


class SandboxResource(SyncResource):
    """The `sandbox` operations."""

    def create_deposit(self, *, account_id: int | None = None, value: Money | None = None, amount: Money | None = None, payer: CreateDepositBodyPayer | None = None) -> CreateDepositResponse:
        """POST /sandbox/deposits: An incoming PIX to the account's key with no charge (a confirmed 'Pix in')"""
        return decode(self._client.request(_OPERATIONS["createDeposit"], json=encode_object(CreateDepositBody, {"account_id": account_id, "value": value, "amount": amount, "payer": payer})), CreateDepositResponse)

    def refund_payout(self, transaction_id: str | int | float, *, amount: Money, account_id: int | None = None) -> RefundPayoutResponse:
        """POST /sandbox/payouts/{transactionId}/refund: The receiving bank returns part or all of a payout: a 'Refund out' (CREDIT)"""
        return decode(self._client.request(_OPERATIONS["refundPayout"], path={"transactionId": transaction_id}, json=encode_object(RefundPayoutBody, {"account_id": account_id, "amount": amount})), RefundPayoutResponse)

    def register_dict_key(self, *, key: str, key_type: Literal["CPF", "CNPJ", "EMAIL", "PHONE", "EVP", "DOCUMENT", "RANDOM"], name: str, document: str, ispb: str, account_id: int | None = None, branch: str | None = None, account: str | None = None) -> RegisterDictKeyResponse:
        """POST /sandbox/dict/keys: Register a key in the simulated key directory (a holder at another bank)"""
        return decode(self._client.request(_OPERATIONS["registerDictKey"], json=encode_object(RegisterDictKeyBody, {"account_id": account_id, "key": key, "key_type": key_type, "name": name, "document": document, "ispb": ispb, "branch": branch, "account": account})), RegisterDictKeyResponse)

    def advance_clock(self, *, seconds: int) -> AdvanceClockResponse:
        """POST /sandbox/clock/advance: Move the service clock forward; what falls due (expiries, settlements, retries) then happens"""
        return decode(self._client.request(_OPERATIONS["advanceClock"], json=encode_object(AdvanceClockBody, {"seconds": seconds})), AdvanceClockResponse)

    def pay_charge(self, id: str | int | float, *, account_id: int | None = None, amount: Money | None = None, payer: PayChargeBodyPayer | None = None) -> PayChargeResponse:
        """POST /sandbox/charges/{id}/pay: Pay a charge as a simulated payer"""
        return decode(self._client.request(_OPERATIONS["payCharge"], path={"id": id}, json=encode_object(PayChargeBody, {"account_id": account_id, "amount": amount, "payer": payer})), PayChargeResponse)

    def open_med(self, *, end_to_end_id: str, account_id: int | None = None, cause: Literal["UNAUTHORIZED_TRANSACTION", "SOCIAL_ENGINEERING", "ACCOUNT_TAKEOVER", "SCAM", "COERCION", "OPERATIONAL_FLAW", "OTHER"] | None = None, description: str | None = None, amount: Money | None = None) -> OpenMedResponse:
        """POST /sandbox/med: Another bank opens a MED against a received PIX (the disputed amount is blocked as a precaution)"""
        return decode(self._client.request(_OPERATIONS["openMed"], json=encode_object(OpenMedBody, {"account_id": account_id, "end_to_end_id": end_to_end_id, "cause": cause, "description": description, "amount": amount})), OpenMedResponse)

    def transition_med(self, id: str | int | float, *, to: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"], account_id: int | None = None, analysis_result: Literal["APPROVED", "REJECTED"] | None = None, analysis_details: str | None = None) -> TransitionMedResponse:
        """POST /sandbox/med/{id}/transition: Move a MED: OPEN -> RECEIVED -> ANALYZED (APPROVED refunds, REJECTED releases); OPEN|RECEIVED -> CANCELLED"""
        return decode(self._client.request(_OPERATIONS["transitionMed"], path={"id": id}, json=encode_object(TransitionMedBody, {"account_id": account_id, "to": to, "analysis_result": analysis_result, "analysis_details": analysis_details})), TransitionMedResponse)

    def list_test_clocks(self, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListTestClocksResponse, TestClock]:
        """GET /sandbox/test-clocks: Test clocks, newest first: all of them with the admin token, the caller's own with an account token"""
        def fetch(cursor: str | int | None) -> ListTestClocksResponse:
            return decode(self._client.request(_OPERATIONS["listTestClocks"], query={"pageSize": page_size, "page": cursor}), ListTestClocksResponse)
        return SyncPager(fetch, "page", page)

    def create_test_clock(self, *, frozen_time: str, account_ids: List[int], name: str | None = None) -> CreateTestClockResponse:
        """POST /sandbox/test-clocks: A test clock for some accounts: every time rule of theirs follows it (an account's own token: only itself)"""
        return decode(self._client.request(_OPERATIONS["createTestClock"], json=encode_object(CreateTestClockBody, {"frozen_time": frozen_time, "account_ids": account_ids, "name": name})), CreateTestClockResponse)

    def get_test_clock(self, id: str | int | float) -> GetTestClockResponse:
        """GET /sandbox/test-clocks/{id}: A test clock: its time, status and accounts"""
        return decode(self._client.request(_OPERATIONS["getTestClock"], path={"id": id}), GetTestClockResponse)

    def delete_test_clock(self, id: str | int | float) -> None:
        """DELETE /sandbox/test-clocks/{id}: Deletes a test clock; its accounts return to the service clock"""
        self._client.request(_OPERATIONS["deleteTestClock"], path={"id": id})

    def advance_test_clock(self, id: str | int | float, *, to: str) -> AdvanceTestClockResponse:
        """POST /sandbox/test-clocks/{id}/advance: Moves a test clock forward; what falls due for its accounts then happens in order, and its status returns to ready"""
        return decode(self._client.request(_OPERATIONS["advanceTestClock"], path={"id": id}, json=encode_object(AdvanceTestClockBody, {"to": to})), AdvanceTestClockResponse)


class PixOperations(SyncResource):
    """Operations that belong to no resource (`client.health()`, ...)."""

    def health(self) -> HealthResponse:
        """GET /health: Liveness: the process and its event loop answer (never asks the database)"""
        return decode(self._client.request(_OPERATIONS["health"]), HealthResponse)

    def ready(self) -> ReadyResponse:
        """GET /ready: Readiness: database, migrations, scheduler, not shutting down"""
        return decode(self._client.request(_OPERATIONS["ready"]), ReadyResponse)

    def metrics(self) -> str:
        """GET /metrics: Prometheus metrics"""
        return str(self._client.request(_OPERATIONS["metrics"]))

    def openapi(self) -> Dict[str, Any]:
        """GET /openapi.json: This OpenAPI 3.1 document"""
        return cast("Dict[str, Any]", decode_as(self._client.request(_OPERATIONS["openapi"]), Dict[str, Any]))

    def jwks(self) -> JwksResponse:
        """GET /.well-known/jwks.json: Public keys (JWKS) that verify access tokens"""
        return decode(self._client.request(_OPERATIONS["jwks"]), JwksResponse)

    def oauth_metadata(self) -> OauthMetadataResponse:
        """GET /.well-known/oauth-authorization-server: OAuth 2.0 authorization server metadata (RFC 8414)"""
        return decode(self._client.request(_OPERATIONS["oauthMetadata"]), OauthMetadataResponse)

    def oauth_token(self, *, client_id: str, client_secret: str) -> OauthTokenResponse:
        """POST /oauth/token: OAuth 2.0 client credentials token (JSON {clientId, clientSecret} or RFC 6749 form)"""
        return decode(self._client.request(_OPERATIONS["oauthToken"], json=encode_object(OauthTokenBody, {"client_id": client_id, "client_secret": client_secret})), OauthTokenResponse)


class AdminLocationResource(SyncResource):
    """The `location` operations."""

    def get(self, location_id: str | int | float) -> str:
        """GET /qr/v2/{locationId}: Charge payload (JWS) behind a dynamic BR Code"""
        return str(self._client.request(_OPERATIONS["getLocation"], path={"locationId": location_id}))


class AdminTokenResource(SyncResource):
    """The `token` operations."""

    def create(self, *, client_id: str, client_secret: str) -> CreateTokenResponse:
        """POST /api/auth/token: Exchange a client certificate and client credentials for an access token"""
        return decode(self._client.request(_OPERATIONS["createToken"], json=encode_object(CreateTokenBody, {"client_id": client_id, "client_secret": client_secret})), CreateTokenResponse)


class AdminAccountsResource(SyncResource):
    """The `accounts` operations."""

    def list(self, *, q: str | None = None, page_size: int | None = None, page: int | None = None) -> SyncPager[ListAccountsResponse, ListAccountsResponseDataItem]:
        """GET /admin/accounts: List or search accounts (newest first): q matches the name (a part, any case), the document, the id or a PIX key"""
        def fetch(cursor: str | int | None) -> ListAccountsResponse:
            return decode(self._client.request(_OPERATIONS["listAccounts"], query={"q": q, "pageSize": page_size, "page": cursor}), ListAccountsResponse)
        return SyncPager(fetch, "page", page)

    def create(self, *, name: str, document: str, type: Literal["INDIVIDUAL", "COMPANY"] | None = None) -> CreateAccountResponse:
        """POST /admin/accounts: Create an account (with a random EVP key)"""
        return decode(self._client.request(_OPERATIONS["createAccount"], json=encode_object(CreateAccountBody, {"name": name, "document": document, "type": type})), CreateAccountResponse)

    def get(self, id: str | int | float) -> GetAccountResponse:
        """GET /admin/accounts/{id}: An account with its balance, limits and fees"""
        return decode(self._client.request(_OPERATIONS["getAccount"], path={"id": id}), GetAccountResponse)

    def update(self, id: str | int | float, *, name: str | None = None) -> UpdateAccountResponse:
        """PATCH /admin/accounts/{id}: Change the account's name (the document, type and keys never change); an empty body changes nothing"""
        return decode(self._client.request(_OPERATIONS["updateAccount"], path={"id": id}, json=encode_object(UpdateAccountBody, {"name": name})), UpdateAccountResponse)

    def suspend(self, id: str | int | float) -> SuspendAccountResponse:
        """POST /admin/accounts/{id}/suspend: Suspend the account: its money-moving calls (cash-out, QR code cash-out, /dict/pix, refunds; API and portal) answer 403 ACCOUNT_SUSPENDED; reads, charges and incoming PIX continue, and payouts already admitted settle. Suspending a suspended account changes nothing"""
        return decode(self._client.request(_OPERATIONS["suspendAccount"], path={"id": id}), SuspendAccountResponse)

    def reactivate(self, id: str | int | float) -> ReactivateAccountResponse:
        """POST /admin/accounts/{id}/reactivate: Reactivate a suspended account: its money-moving calls work again. Reactivating an active account changes nothing"""
        return decode(self._client.request(_OPERATIONS["reactivateAccount"], path={"id": id}), ReactivateAccountResponse)


class AdminCertificatesResource(SyncResource):
    """The `certificates` operations."""

    def list(self, id: str | int | float, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListCertificatesResponse, ListCertificatesResponseDataItem]:
        """GET /admin/accounts/{id}/certificates: The account's client certificates, newest first, revoked ones included (never a private key: the service keeps none)"""
        def fetch(cursor: str | int | None) -> ListCertificatesResponse:
            return decode(self._client.request(_OPERATIONS["listCertificates"], path={"id": id}, query={"pageSize": page_size, "page": cursor}), ListCertificatesResponse)
        return SyncPager(fetch, "page", page)

    def register(self, id: str | int | float, *, pem: str | None = None) -> RegisterCertificateResponse:
        """POST /admin/accounts/{id}/certificates: Link a client certificate: register a PEM, or send {} to have a key and certificate made"""
        return decode(self._client.request(_OPERATIONS["registerCertificate"], path={"id": id}, json=encode_object(RegisterCertificateBody, {"pem": pem})), RegisterCertificateResponse)

    def revoke(self, fingerprint: str | int | float) -> None:
        """DELETE /admin/certificates/{fingerprint}: Revoke a certificate (token requests with it then get PUB_CERT_NOT_REGISTERED)"""
        self._client.request(_OPERATIONS["revokeCertificate"], path={"fingerprint": fingerprint})


class AdminCredentialsResource(SyncResource):
    """The `credentials` operations."""

    def list(self, id: str | int | float, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListCredentialsResponse, ListCredentialsResponseDataItem]:
        """GET /admin/accounts/{id}/credentials: The account's OAuth client credentials, newest first (never a secret: only its hash is kept)"""
        def fetch(cursor: str | int | None) -> ListCredentialsResponse:
            return decode(self._client.request(_OPERATIONS["listCredentials"], path={"id": id}, query={"pageSize": page_size, "page": cursor}), ListCredentialsResponse)
        return SyncPager(fetch, "page", page)

    def create(self, id: str | int | float, *, client_secret: str | None = None, scopes: List[Literal["pix:read", "pix:write", "balance:read", "webhook:read", "webhook:write"]] | None = None) -> CreateCredentialsResponse:
        """POST /admin/accounts/{id}/credentials: Create OAuth client credentials (the secret is shown only in this answer)"""
        return decode(self._client.request(_OPERATIONS["createCredentials"], path={"id": id}, json=encode_object(CreateCredentialsBody, {"client_secret": client_secret, "scopes": scopes})), CreateCredentialsResponse)

    def revoke(self, id: str | int | float, client_id: str | int | float) -> None:
        """DELETE /admin/accounts/{id}/credentials/{clientId}: Revoke one of the account's credentials: new tokens are refused and the ones it got stop working at once, on every instance"""
        self._client.request(_OPERATIONS["revokeCredential"], path={"id": id, "clientId": client_id})


class AdminLimitsResource(SyncResource):
    """The `limits` operations."""

    def update(self, id: str | int | float, *, per_transaction: Money | None = None, daily: Money | None = None, nightly: Money | None = None) -> UpdateLimitsResponse:
        """PATCH /admin/accounts/{id}/limits: Set cash-out limits (BRL): per transaction, per calendar day, per night"""
        return decode(self._client.request(_OPERATIONS["updateLimits"], path={"id": id}, json=encode_object(UpdateLimitsBody, {"per_transaction": per_transaction, "daily": daily, "nightly": nightly})), UpdateLimitsResponse)


class AdminFeesResource(SyncResource):
    """The `fees` operations."""

    def update(self, id: str | int | float, *, cash_in: UpdateFeesBodyCashIn | None = None, cash_out: UpdateFeesBodyCashOut | None = None) -> UpdateFeesResponse:
        """PATCH /admin/accounts/{id}/fees: Set fees: fixed BRL plus a percent of the amount, rounded half-up to the cent"""
        return decode(self._client.request(_OPERATIONS["updateFees"], path={"id": id}, json=encode_object(UpdateFeesBody, {"cash_in": cash_in, "cash_out": cash_out})), UpdateFeesResponse)


class AdminSplitFrequencyResource(SyncResource):
    """The `split_frequency` operations."""

    def update(self, id: str | int | float, *, frequency: Literal["IMMEDIATE", "HOURLY", "DAILY"]) -> UpdateSplitFrequencyResponse:
        """PATCH /admin/accounts/{id}/split-frequency: Set when the account's non-immediate split shares are paid"""
        return decode(self._client.request(_OPERATIONS["updateSplitFrequency"], path={"id": id}, json=encode_object(UpdateSplitFrequencyBody, {"frequency": frequency})), UpdateSplitFrequencyResponse)


class AdminAccountWebhooksResource(SyncResource):
    """The `account_webhooks` operations."""

    def list(self, id: str | int | float, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListAccountWebhooksResponse, ListAccountWebhooksResponseDataItem]:
        """GET /admin/accounts/{id}/webhooks: The account's webhook registrations (active, and those a 410 answer disabled), oldest first"""
        def fetch(cursor: str | int | None) -> ListAccountWebhooksResponse:
            return decode(self._client.request(_OPERATIONS["listAccountWebhooks"], path={"id": id}, query={"pageSize": page_size, "page": cursor}), ListAccountWebhooksResponse)
        return SyncPager(fetch, "page", page)

    def register(self, id: str | int | float, *, event_type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"], url: str, headers: List[RegisterAccountWebhookBodyHeadersItem] | None = None) -> RegisterAccountWebhookResponse:
        """POST /admin/accounts/{id}/webhooks: Register a webhook URL for one of the account's events (same URL again: new headers and version)"""
        return decode(self._client.request(_OPERATIONS["registerAccountWebhook"], path={"id": id}, json=encode_object(RegisterAccountWebhookBody, {"event_type": event_type, "url": url, "headers": headers})), RegisterAccountWebhookResponse)


class AdminWebhookResource(SyncResource):
    """The `webhook` operations."""

    def delete(self, id: str | int | float) -> None:
        """DELETE /admin/webhooks/{id}: Delete a webhook registration (its pending deliveries are cancelled)"""
        self._client.request(_OPERATIONS["deleteWebhook"], path={"id": id})


class AdminWebhookSecretResource(SyncResource):
    """The `webhook_secret` operations."""

    def get(self, id: str | int | float) -> GetWebhookSecretResponse:
        """GET /admin/accounts/{id}/webhook-secret: The account's webhook signing secret (whsec_...), created on first request"""
        return decode(self._client.request(_OPERATIONS["getWebhookSecret"], path={"id": id}), GetWebhookSecretResponse)

    def rotate(self, id: str | int | float) -> RotateWebhookSecretResponse:
        """POST /admin/accounts/{id}/webhook-secret/rotate: Rotate the account's webhook signing secret: until previousSecretValidUntil every delivery is signed by both secrets (two v1 signatures), then by the new one only"""
        return decode(self._client.request(_OPERATIONS["rotateWebhookSecret"], path={"id": id}), RotateWebhookSecretResponse)


class AdminSuspenseResource(SyncResource):
    """The `suspense` operations."""

    def list(self, *, status: Literal["OPEN", "ASSIGNED"] | None = None, page_size: int | None = None, size: int | None = None, page: int | None = None) -> SyncPager[ListSuspenseResponse, ListSuspenseResponseDataItem]:
        """GET /admin/network/suspense: Money received on the pooled account that names no charge of ours, waiting for an operator (newest first)"""
        def fetch(cursor: str | int | None) -> ListSuspenseResponse:
            return decode(self._client.request(_OPERATIONS["listSuspense"], query={"status": status, "pageSize": page_size, "size": size, "page": cursor}), ListSuspenseResponse)
        return SyncPager(fetch, "page", page)

    def assign(self, id: str | int | float, *, account_id: int) -> AssignSuspenseResponse:
        """POST /admin/network/suspense/{id}/assign: Assigns money held in suspense to an account: a received PIX ("Pix in", cash_in webhook); 409 when already assigned"""
        return decode(self._client.request(_OPERATIONS["assignSuspense"], path={"id": id}, json=encode_object(AssignSuspenseBody, {"account_id": account_id})), AssignSuspenseResponse)


class AdminStatementCheckResource(SyncResource):
    """The `statement_check` operations."""

    def run(self) -> RunStatementCheckResponse:
        """POST /admin/network/statement-check: Runs the statement check now: our books against the provider's GET /api/balance (recorded for operators)"""
        return decode(self._client.request(_OPERATIONS["runStatementCheck"]), RunStatementCheckResponse)


class AdminOperatorsResource(SyncResource):
    """The `operators` operations."""

    def list(self, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListOperatorsResponse, ListOperatorsResponseDataItem]:
        """GET /admin/operators: The portal operators (back office), oldest first"""
        def fetch(cursor: str | int | None) -> ListOperatorsResponse:
            return decode(self._client.request(_OPERATIONS["listOperators"], query={"pageSize": page_size, "page": cursor}), ListOperatorsResponse)
        return SyncPager(fetch, "page", page)

    def create(self, *, email: str, password: str) -> CreateOperatorResponse:
        """POST /admin/operators: Create a portal operator (back office): signs in at /portal/sign-in"""
        return decode(self._client.request(_OPERATIONS["createOperator"], json=encode_object(CreateOperatorBody, {"email": email, "password": password})), CreateOperatorResponse)

    def remove(self, id: str | int | float) -> None:
        """DELETE /admin/operators/{id}: Remove an operator: their portal sessions end at once and they cannot sign in again"""
        self._client.request(_OPERATIONS["removeOperator"], path={"id": id})


class AdminMembersResource(SyncResource):
    """The `members` operations."""

    def list(self, id: str | int | float, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListMembersResponse, ListMembersResponseDataItem]:
        """GET /admin/accounts/{id}/members: The account's portal members (invited or active), oldest first"""
        def fetch(cursor: str | int | None) -> ListMembersResponse:
            return decode(self._client.request(_OPERATIONS["listMembers"], path={"id": id}, query={"pageSize": page_size, "page": cursor}), ListMembersResponse)
        return SyncPager(fetch, "page", page)

    def invite(self, id: str | int | float, *, email: str) -> InviteMemberResponse:
        """POST /admin/accounts/{id}/members: Invite a member of the account to the portal: a one-time link (72 h) where they set a password"""
        return decode(self._client.request(_OPERATIONS["inviteMember"], path={"id": id}, json=encode_object(InviteMemberBody, {"email": email})), InviteMemberResponse)

    def remove(self, id: str | int | float, member_id: str | int | float) -> None:
        """DELETE /admin/accounts/{id}/members/{memberId}: Remove a member from the account: their portal sessions end at once and their invitation link stops working"""
        self._client.request(_OPERATIONS["removeMember"], path={"id": id, "memberId": member_id})


class AdminWebhookDeliveriesResource(SyncResource):
    """The `webhook_deliveries` operations."""

    def list(self, id: str | int | float, *, status: Literal["delivered", "failed"] | None = None, event: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"] | None = None, page_size: int | None = None, page: int | None = None) -> SyncPager[ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponseDataItem]:
        """GET /admin/accounts/{id}/webhook-deliveries: The account's webhook delivery attempts, newest first: event, transaction, URL, status code, duration, attempt number and next attempt"""
        def fetch(cursor: str | int | None) -> ListWebhookDeliveriesResponse:
            return decode(self._client.request(_OPERATIONS["listWebhookDeliveries"], path={"id": id}, query={"status": status, "event": event, "pageSize": page_size, "page": cursor}), ListWebhookDeliveriesResponse)
        return SyncPager(fetch, "page", page)


class AdminTestWebhookResource(SyncResource):
    """The `test_webhook` operations."""

    def send(self, id: str | int | float, *, event: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]) -> SendTestWebhookResponse:
        """POST /admin/accounts/{id}/webhooks/test: Send a test event to the account's active URLs for that event, signed like a real delivery (metadata.test: true), once, and answer each attempt"""
        return decode(self._client.request(_OPERATIONS["sendTestWebhook"], path={"id": id}, json=encode_object(SendTestWebhookBody, {"event": event})), SendTestWebhookResponse)


class AdminSigningKeyResource(SyncResource):
    """The `signing_key` operations."""

    def rotate(self) -> RotateSigningKeyResponse:
        """POST /admin/signing-keys/rotate: Rotate the access-token signing key: a new key signs from now (on other instances within 30 s); the old one stays in /.well-known/jwks.json until the tokens it signed have expired"""
        return decode(self._client.request(_OPERATIONS["rotateSigningKey"]), RotateSigningKeyResponse)


class AdminAccountEventsResource(SyncResource):
    """The `account_events` operations."""

    def list(self, id: str | int | float, *, type: str | None = None, size: int | None = None, after: str | None = None) -> SyncPager[ListAccountEventsResponse, ListAccountEventsResponseDataItem]:
        """GET /admin/accounts/{id}/events: The account's events, oldest first, after a cursor (as GET /api/events)"""
        def fetch(cursor: str | int | None) -> ListAccountEventsResponse:
            return decode(self._client.request(_OPERATIONS["listAccountEvents"], path={"id": id}, query={"type": type, "size": size, "after": cursor}), ListAccountEventsResponse)
        return SyncPager(fetch, "after", after)

    def stream(self, id: str | int | float, *, type: str | None = None, last_event_id: str | None = None) -> Iterator[ServerSentEvent]:
        """GET /admin/accounts/{id}/events/stream: The account's events live, Server-Sent Events (as GET /api/events/stream)"""
        return self._client.stream(_OPERATIONS["streamAccountEvents"], path={"id": id}, headers={"last-event-id": last_event_id}, query={"type": type})

    def get(self, id: str | int | float, event_id: str | int | float) -> GetAccountEventResponse:
        """GET /admin/accounts/{id}/events/{eventId}: One event of the account (as GET /api/events/{id})"""
        return decode(self._client.request(_OPERATIONS["getAccountEvent"], path={"id": id, "eventId": event_id}), GetAccountEventResponse)


class AdminAccountDeliveriesResource(SyncResource):
    """The `account_deliveries` operations."""

    def replay(self, id: str | int | float, *, since: str, status: Literal["failed", "all"], type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"] | None = None) -> ReplayAccountDeliveriesResponse:
        """POST /admin/accounts/{id}/webhook-deliveries/replay: Queue the account's webhook deliveries since a time again (as POST /api/webhook-deliveries/replay)"""
        return decode(self._client.request(_OPERATIONS["replayAccountDeliveries"], path={"id": id}, json=encode_object(ReplayAccountDeliveriesBody, {"since": since, "status": status, "type": type})), ReplayAccountDeliveriesResponse)


class AdminSandboxResource(SyncResource):
    """The `sandbox` operations."""

    def create_deposit(self, *, account_id: int | None = None, value: Money | None = None, amount: Money | None = None, payer: CreateDepositBodyPayer | None = None) -> CreateDepositResponse:
        """POST /sandbox/deposits: An incoming PIX to the account's key with no charge (a confirmed 'Pix in')"""
        return decode(self._client.request(_OPERATIONS["createDeposit"], json=encode_object(CreateDepositBody, {"account_id": account_id, "value": value, "amount": amount, "payer": payer})), CreateDepositResponse)

    def refund_payout(self, transaction_id: str | int | float, *, amount: Money, account_id: int | None = None) -> RefundPayoutResponse:
        """POST /sandbox/payouts/{transactionId}/refund: The receiving bank returns part or all of a payout: a 'Refund out' (CREDIT)"""
        return decode(self._client.request(_OPERATIONS["refundPayout"], path={"transactionId": transaction_id}, json=encode_object(RefundPayoutBody, {"account_id": account_id, "amount": amount})), RefundPayoutResponse)

    def register_dict_key(self, *, key: str, key_type: Literal["CPF", "CNPJ", "EMAIL", "PHONE", "EVP", "DOCUMENT", "RANDOM"], name: str, document: str, ispb: str, account_id: int | None = None, branch: str | None = None, account: str | None = None) -> RegisterDictKeyResponse:
        """POST /sandbox/dict/keys: Register a key in the simulated key directory (a holder at another bank)"""
        return decode(self._client.request(_OPERATIONS["registerDictKey"], json=encode_object(RegisterDictKeyBody, {"account_id": account_id, "key": key, "key_type": key_type, "name": name, "document": document, "ispb": ispb, "branch": branch, "account": account})), RegisterDictKeyResponse)

    def advance_clock(self, *, seconds: int) -> AdvanceClockResponse:
        """POST /sandbox/clock/advance: Move the service clock forward; what falls due (expiries, settlements, retries) then happens"""
        return decode(self._client.request(_OPERATIONS["advanceClock"], json=encode_object(AdvanceClockBody, {"seconds": seconds})), AdvanceClockResponse)

    def pay_charge(self, id: str | int | float, *, account_id: int | None = None, amount: Money | None = None, payer: PayChargeBodyPayer | None = None) -> PayChargeResponse:
        """POST /sandbox/charges/{id}/pay: Pay a charge as a simulated payer"""
        return decode(self._client.request(_OPERATIONS["payCharge"], path={"id": id}, json=encode_object(PayChargeBody, {"account_id": account_id, "amount": amount, "payer": payer})), PayChargeResponse)

    def open_med(self, *, end_to_end_id: str, account_id: int | None = None, cause: Literal["UNAUTHORIZED_TRANSACTION", "SOCIAL_ENGINEERING", "ACCOUNT_TAKEOVER", "SCAM", "COERCION", "OPERATIONAL_FLAW", "OTHER"] | None = None, description: str | None = None, amount: Money | None = None) -> OpenMedResponse:
        """POST /sandbox/med: Another bank opens a MED against a received PIX (the disputed amount is blocked as a precaution)"""
        return decode(self._client.request(_OPERATIONS["openMed"], json=encode_object(OpenMedBody, {"account_id": account_id, "end_to_end_id": end_to_end_id, "cause": cause, "description": description, "amount": amount})), OpenMedResponse)

    def transition_med(self, id: str | int | float, *, to: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"], account_id: int | None = None, analysis_result: Literal["APPROVED", "REJECTED"] | None = None, analysis_details: str | None = None) -> TransitionMedResponse:
        """POST /sandbox/med/{id}/transition: Move a MED: OPEN -> RECEIVED -> ANALYZED (APPROVED refunds, REJECTED releases); OPEN|RECEIVED -> CANCELLED"""
        return decode(self._client.request(_OPERATIONS["transitionMed"], path={"id": id}, json=encode_object(TransitionMedBody, {"account_id": account_id, "to": to, "analysis_result": analysis_result, "analysis_details": analysis_details})), TransitionMedResponse)

    def list_test_clocks(self, *, page_size: int | None = None, page: int | None = None) -> SyncPager[ListTestClocksResponse, TestClock]:
        """GET /sandbox/test-clocks: Test clocks, newest first: all of them with the admin token, the caller's own with an account token"""
        def fetch(cursor: str | int | None) -> ListTestClocksResponse:
            return decode(self._client.request(_OPERATIONS["listTestClocks"], query={"pageSize": page_size, "page": cursor}), ListTestClocksResponse)
        return SyncPager(fetch, "page", page)

    def create_test_clock(self, *, frozen_time: str, account_ids: List[int], name: str | None = None) -> CreateTestClockResponse:
        """POST /sandbox/test-clocks: A test clock for some accounts: every time rule of theirs follows it (an account's own token: only itself)"""
        return decode(self._client.request(_OPERATIONS["createTestClock"], json=encode_object(CreateTestClockBody, {"frozen_time": frozen_time, "account_ids": account_ids, "name": name})), CreateTestClockResponse)

    def get_test_clock(self, id: str | int | float) -> GetTestClockResponse:
        """GET /sandbox/test-clocks/{id}: A test clock: its time, status and accounts"""
        return decode(self._client.request(_OPERATIONS["getTestClock"], path={"id": id}), GetTestClockResponse)

    def delete_test_clock(self, id: str | int | float) -> None:
        """DELETE /sandbox/test-clocks/{id}: Deletes a test clock; its accounts return to the service clock"""
        self._client.request(_OPERATIONS["deleteTestClock"], path={"id": id})

    def advance_test_clock(self, id: str | int | float, *, to: str) -> AdvanceTestClockResponse:
        """POST /sandbox/test-clocks/{id}/advance: Moves a test clock forward; what falls due for its accounts then happens in order, and its status returns to ready"""
        return decode(self._client.request(_OPERATIONS["advanceTestClock"], path={"id": id}, json=encode_object(AdvanceTestClockBody, {"to": to})), AdvanceTestClockResponse)


class AdminOperations(SyncResource):
    """Operations that belong to no resource (`client.health()`, ...)."""

    def health(self) -> HealthResponse:
        """GET /health: Liveness: the process and its event loop answer (never asks the database)"""
        return decode(self._client.request(_OPERATIONS["health"]), HealthResponse)

    def ready(self) -> ReadyResponse:
        """GET /ready: Readiness: database, migrations, scheduler, not shutting down"""
        return decode(self._client.request(_OPERATIONS["ready"]), ReadyResponse)

    def metrics(self) -> str:
        """GET /metrics: Prometheus metrics"""
        return str(self._client.request(_OPERATIONS["metrics"]))

    def openapi(self) -> Dict[str, Any]:
        """GET /openapi.json: This OpenAPI 3.1 document"""
        return cast("Dict[str, Any]", decode_as(self._client.request(_OPERATIONS["openapi"]), Dict[str, Any]))

    def jwks(self) -> JwksResponse:
        """GET /.well-known/jwks.json: Public keys (JWKS) that verify access tokens"""
        return decode(self._client.request(_OPERATIONS["jwks"]), JwksResponse)

    def oauth_metadata(self) -> OauthMetadataResponse:
        """GET /.well-known/oauth-authorization-server: OAuth 2.0 authorization server metadata (RFC 8414)"""
        return decode(self._client.request(_OPERATIONS["oauthMetadata"]), OauthMetadataResponse)

    def oauth_token(self, *, client_id: str, client_secret: str) -> OauthTokenResponse:
        """POST /oauth/token: OAuth 2.0 client credentials token (JSON {clientId, clientSecret} or RFC 6749 form)"""
        return decode(self._client.request(_OPERATIONS["oauthToken"], json=encode_object(OauthTokenBody, {"client_id": client_id, "client_secret": client_secret})), OauthTokenResponse)

    def ledger_check(self) -> LedgerCheckResponse:
        """GET /admin/ledger/check: Checks the double-entry ledger: balanced journals, balances equal to postings, no negative balance"""
        return decode(self._client.request(_OPERATIONS["ledgerCheck"]), LedgerCheckResponse)

    def network_status(self) -> NetworkStatusResponse:
        """GET /admin/network/status: The PIX network: adapter, circuit, token expiry, last notice, payouts awaiting an outcome, last reconciliation, statement check, suspense"""
        return decode(self._client.request(_OPERATIONS["networkStatus"]), NetworkStatusResponse)
