# Generated from the service's OpenAPI document by sdk/scripts/generate-python.ts: run `npm run sdk:python`, do not edit.

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Dict, List, Literal, TypedDict

from typing import NotRequired

from ._core import Money, MoneyText, register_wire_names

__all__ = ["Money", "MoneyText", "WebhookEvent", "HealthResponse", "ReadyResponse", "ReadyResponseChecks", "JwksResponse", "JwksResponseKeysItem", "OauthMetadataResponse", "CreateTokenBody", "CreateTokenResponse", "GetBalanceResponse", "CreateCashInBody", "CreateCashInBodyTransaction", "CreateCashInBodyPayer", "CreateCashInBodySplitsItem", "CreateCashInResponse", "CreateCashOutBody", "CreateCashOutBodyDetails", "CreateCashOutResponse", "CreateCashOutQrCodeBody", "CreateCashOutQrCodeResponse", "ListTransactionsResponse", "ListTransactionsResponseDataItem", "ListTransactionsResponseDataItemCounterpart", "ListTransactionsResponseDataItemCounterpartBank", "ListTransactionsResponseMetadata", "GetTransactionResponse", "CreateRefundInBody", "CreateRefundInResponse", "ListMedResponse", "Med", "MedRequestingBank", "MedContestedBank", "MedTransaction", "ListMedResponseMetadata", "ListWebhooksResponse", "ListWebhooksResponseWebhooksItem", "RegisterWebhookResponse", "ResendWebhookBody", "ResendWebhookResponse", "ListEventsResponse", "ListEventsResponseDataItem", "ListEventsResponseMetadata", "GetEventResponse", "ReplayWebhookDeliveriesBody", "ReplayWebhookDeliveriesResponse", "GetBalancesResponse", "GetBalancesResponseDataItem", "GetBalancesResponseDataItemBalanceAmount", "CreateDictTransferBody", "CreateDictTransferBodyPayment", "CreateDictTransferResponse", "CreateDictTransferResponsePayment", "GetDictTransferResponse", "GetDictTransferResponsePayment", "GetCobResponse", "GetCobResponseCalendario", "GetCobResponseLoc", "GetCobResponseDevedor", "GetCobResponseValor", "GetCobResponseInfoAdicionaisItem", "GetCobResponsePixItem", "Devolucao", "DevolucaoHorario", "PutCobBody", "PutCobBodyCalendario", "PutCobBodyDevedor", "PutCobBodyValor", "PutCobBodyInfoAdicionaisItem", "PutCobResponse", "PutCobResponseCalendario", "PutCobResponseLoc", "PutCobResponseDevedor", "PutCobResponseValor", "PutCobResponseInfoAdicionaisItem", "PutCobResponsePixItem", "PatchCobBody", "PatchCobResponse", "PatchCobResponseCalendario", "PatchCobResponseLoc", "PatchCobResponseDevedor", "PatchCobResponseValor", "PatchCobResponseInfoAdicionaisItem", "PatchCobResponsePixItem", "GetDevolucaoResponse", "GetDevolucaoResponseHorario", "PutDevolucaoBody", "PutDevolucaoResponse", "PutDevolucaoResponseHorario", "OauthTokenBody", "OauthTokenResponse", "ListAccountsResponse", "ListAccountsResponseDataItem", "ListAccountsResponseDataItemBalance", "ListAccountsResponseMetadata", "CreateAccountBody", "CreateAccountResponse", "GetAccountResponse", "GetAccountResponseBalance", "GetAccountResponseLimits", "GetAccountResponseFees", "GetAccountResponseFeesCashIn", "GetAccountResponseFeesCashOut", "UpdateAccountBody", "UpdateAccountResponse", "UpdateAccountResponseBalance", "UpdateAccountResponseLimits", "UpdateAccountResponseFees", "UpdateAccountResponseFeesCashIn", "UpdateAccountResponseFeesCashOut", "ListCertificatesResponse", "ListCertificatesResponseDataItem", "ListCertificatesResponseMetadata", "RegisterCertificateBody", "RegisterCertificateResponse", "ListCredentialsResponse", "ListCredentialsResponseDataItem", "ListCredentialsResponseMetadata", "CreateCredentialsBody", "CreateCredentialsResponse", "UpdateLimitsBody", "UpdateLimitsResponse", "UpdateFeesBody", "UpdateFeesBodyCashIn", "UpdateFeesBodyCashOut", "UpdateFeesResponse", "UpdateFeesResponseCashIn", "UpdateFeesResponseCashOut", "UpdateSplitFrequencyBody", "UpdateSplitFrequencyResponse", "ListAccountWebhooksResponse", "ListAccountWebhooksResponseDataItem", "ListAccountWebhooksResponseMetadata", "RegisterAccountWebhookBody", "RegisterAccountWebhookBodyHeadersItem", "RegisterAccountWebhookResponse", "GetWebhookSecretResponse", "LedgerCheckResponse", "LedgerCheckResponsePostings", "LedgerCheckResponseUnbalancedJournals", "LedgerCheckResponseUnbalancedJournalsItemsItem", "LedgerCheckResponseDrift", "LedgerCheckResponseDriftItemsItem", "LedgerCheckResponseNegativeBalances", "LedgerCheckResponseNegativeBalancesItemsItem", "LedgerCheckResponseSystemAccountsItem", "NetworkStatusResponse", "NetworkStatusResponsePayoutsAwaitingOutcome", "NetworkStatusResponseSuspense", "NetworkStatusResponseProvider", "NetworkStatusResponseProviderCircuit", "NetworkStatusResponseProviderToken", "NetworkStatusResponseProviderLastNotice", "NetworkStatusResponseProviderLastStatementCheck", "ListSuspenseResponse", "ListSuspenseResponseDataItem", "ListSuspenseResponseDataItemPayer", "ListSuspenseResponseMetadata", "AssignSuspenseBody", "AssignSuspenseResponse", "AssignSuspenseResponsePayer", "RunStatementCheckResponse", "ListOperatorsResponse", "ListOperatorsResponseDataItem", "ListOperatorsResponseMetadata", "CreateOperatorBody", "CreateOperatorResponse", "ListMembersResponse", "ListMembersResponseDataItem", "ListMembersResponseMetadata", "InviteMemberBody", "InviteMemberResponse", "ListWebhookDeliveriesResponse", "ListWebhookDeliveriesResponseDataItem", "ListWebhookDeliveriesResponseMetadata", "RotateWebhookSecretResponse", "SendTestWebhookBody", "SendTestWebhookResponse", "SendTestWebhookResponseAttemptsItem", "RotateSigningKeyResponse", "SuspendAccountResponse", "SuspendAccountResponseBalance", "SuspendAccountResponseLimits", "SuspendAccountResponseFees", "SuspendAccountResponseFeesCashIn", "SuspendAccountResponseFeesCashOut", "ReactivateAccountResponse", "ReactivateAccountResponseBalance", "ReactivateAccountResponseLimits", "ReactivateAccountResponseFees", "ReactivateAccountResponseFeesCashIn", "ReactivateAccountResponseFeesCashOut", "ListAccountEventsResponse", "ListAccountEventsResponseDataItem", "ListAccountEventsResponseMetadata", "GetAccountEventResponse", "ReplayAccountDeliveriesBody", "ReplayAccountDeliveriesResponse", "CreateDepositBody", "CreateDepositBodyPayer", "CreateDepositResponse", "RefundPayoutBody", "RefundPayoutResponse", "RegisterDictKeyBody", "RegisterDictKeyResponse", "AdvanceClockBody", "AdvanceClockResponse", "PayChargeBody", "PayChargeBodyPayer", "PayChargeResponse", "OpenMedBody", "OpenMedResponse", "OpenMedResponseRequestingBank", "OpenMedResponseContestedBank", "OpenMedResponseTransaction", "TransitionMedBody", "TransitionMedResponse", "TransitionMedResponseRequestingBank", "TransitionMedResponseContestedBank", "TransitionMedResponseTransaction", "ListTestClocksResponse", "TestClock", "ListTestClocksResponseMetadata", "CreateTestClockBody", "CreateTestClockResponse", "GetTestClockResponse", "AdvanceTestClockBody", "AdvanceTestClockResponse", "TransactionEvent", "TransactionEventCounterpart", "TransactionEventCounterpartBank", "TransactionEventParentTransaction", "TransactionEventParentTransactionCounterpart", "TransactionEventParentTransactionCounterpartBank", "ReceiveEvent", "ReceiveEventData", "ReceiveEventDataPayment", "ReceiveEventDataDebtorAccount", "TransferEvent", "TransferEventData", "TransferEventDataPayment", "TransferEventDataCreditorAccount", "RefundEvent", "RefundEventData", "RefundEventDataPayment", "RefundEventDataRefundsItem", "RefundEventDataRefundsItemPayment", "MedEvent", "MedEventMed", "MedEventMedRequestingBank", "MedEventMedContestedBank", "MedEventMedTransaction"]


@dataclass(frozen=True)
class HealthResponse:
    status: Literal["ok"]


@dataclass(frozen=True)
class ReadyResponse:
    status: Literal["ready", "not_ready"]
    checks: ReadyResponseChecks


@dataclass(frozen=True)
class ReadyResponseChecks:
    database: Literal["ok"] | str
    migrations: Literal["ok"] | str
    scheduler: Literal["ok"] | str
    draining: Literal["ok"] | str | None = None


@dataclass(frozen=True)
class JwksResponse:
    keys: List[JwksResponseKeysItem]


@dataclass(frozen=True)
class JwksResponseKeysItem:
    kty: str
    crv: str
    x: str
    y: str
    kid: str
    alg: str
    use: str


@dataclass(frozen=True)
class OauthMetadataResponse:
    issuer: str
    token_endpoint: str
    token_endpoint_auth_methods_supported: List[str]
    grant_types_supported: List[str]
    response_types_supported: List[str]
    scopes_supported: List[str]
    jwks_uri: str
    service_documentation: str
    tls_client_certificate_bound_access_tokens: bool
    api_token_endpoint: str
    api_token_endpoint_auth_methods_supported: List[str]


class CreateTokenBody(TypedDict):
    client_id: str
    client_secret: str


@dataclass(frozen=True)
class CreateTokenResponse:
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: float


@dataclass(frozen=True)
class GetBalanceResponse:
    gross_balance: Decimal
    blocked_balance: Decimal
    net_balance: Decimal
    consulted_at: str


class CreateCashInBody(TypedDict):
    transaction: CreateCashInBodyTransaction
    payer: CreateCashInBodyPayer
    additional_info: NotRequired[Dict[str, str]]
    splits: NotRequired[List[CreateCashInBodySplitsItem]]


class CreateCashInBodyTransaction(TypedDict):
    value: Money
    description: str
    external_id: str
    expiration_time: NotRequired[int]
    generate_qr_code: NotRequired[bool]


class CreateCashInBodyPayer(TypedDict):
    full_name: str
    document: str


class CreateCashInBodySplitsItem(TypedDict):
    pix_key: str
    pix_key_type: Literal["EMAIL", "PHONE", "CPF", "CNPJ", "RANDOM"]
    name: str
    document: str
    type: Literal["FIXED", "PERCENTAGE"]
    value: float
    immediate: NotRequired[bool]


@dataclass(frozen=True)
class CreateCashInResponse:
    transaction_id: str
    correlation_id: str
    external_id: str
    status: Literal["PENDING"]
    pix_code: str
    generate_time: str
    expiration_date: str
    qr_code_image: str | None = None


class CreateCashOutBody(TypedDict):
    value: Money
    external_id: str
    description: NotRequired[str]
    details: CreateCashOutBodyDetails


class CreateCashOutBodyDetails(TypedDict):
    key: str
    key_type: Literal["DOCUMENT", "EMAIL", "PHONE", "RANDOM"]
    name: str
    document: str


@dataclass(frozen=True)
class CreateCashOutResponse:
    transaction_id: str
    external_id: str
    status: Literal["PENDING", "CONFIRMED", "ERROR"]
    generate_time: str


class CreateCashOutQrCodeBody(TypedDict):
    value: Money
    qr_code: str
    external_id: str
    description: NotRequired[str]
    name: NotRequired[str]
    document: NotRequired[str]


@dataclass(frozen=True)
class CreateCashOutQrCodeResponse:
    transaction_id: str
    external_id: str
    status: Literal["PENDING", "CONFIRMED", "ERROR"]
    generate_time: str


@dataclass(frozen=True)
class ListTransactionsResponse:
    data: List[ListTransactionsResponseDataItem]
    metadata: ListTransactionsResponseMetadata


@dataclass(frozen=True)
class ListTransactionsResponseDataItem:
    transaction_id: str
    external_id: str | None
    status: str
    operation_type: str
    movement_type: str
    original_amount: Decimal
    fee_amount: Decimal
    final_amount: Decimal
    end_to_end_id: str | None
    created_at: str
    processed_at: str | None
    counterpart: ListTransactionsResponseDataItemCounterpart


@dataclass(frozen=True)
class ListTransactionsResponseDataItemCounterpart:
    name: str | None
    document: str | None
    bank: ListTransactionsResponseDataItemCounterpartBank


@dataclass(frozen=True)
class ListTransactionsResponseDataItemCounterpartBank:
    bank_ispb: str | None
    bank_name: str | None
    bank_code: str | None
    account_branch: str | None
    account_number: str | None


@dataclass(frozen=True)
class ListTransactionsResponseMetadata:
    page: float
    size: float
    total: float
    total_pages: float
    has_next: bool
    has_previous: bool


@dataclass(frozen=True)
class GetTransactionResponse:
    id: str
    external_id: str | None
    type: Literal["PAYMENT", "REFUND_IN", "REFUND_OUT", "WITHDRAW", "TRANSFER"]
    status: Literal["PENDING", "CONFIRMED", "ERROR"]
    original_amount: Decimal
    fee_amount: Decimal
    final_amount: Decimal
    e2e_id: str | None
    counterpart_name: str | None
    counterpart_document: str | None
    counterpart_account_bank_code: str | None
    counterpart_account_branch: str | None
    counterpart_account_number: str | None
    counterpart_account_ispb: str | None
    counterpart_account_bank_name: str | None
    created_at: str
    updated_at: str
    processed_at: str | None


class CreateRefundInBody(TypedDict):
    refund_value: Money
    reason: NotRequired[str]
    external_id: NotRequired[str]


@dataclass(frozen=True)
class CreateRefundInResponse:
    transaction_id: str
    external_id: str
    status: Literal["PENDING", "CONFIRMED", "ERROR"]
    refund_value: Decimal
    provider_transaction_id: str
    generate_time: str


@dataclass(frozen=True)
class ListMedResponse:
    data: List[Med]
    metadata: ListMedResponseMetadata


@dataclass(frozen=True)
class Med:
    id: float
    end_to_end: str
    status: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"]
    reason: Literal["REFUND_REQUEST", "REFUND_CANCELLATION"]
    cause: str | None
    description: str | None
    analysis_result: Literal["APPROVED", "REJECTED"] | None
    analysis_details: str | None
    requesting_bank: MedRequestingBank
    contested_bank: MedContestedBank
    transaction: MedTransaction | None
    is_reconciled: bool
    original_transaction_id: float | None
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class MedRequestingBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class MedContestedBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class MedTransaction:
    amount: float
    type: str
    transaction_type: str
    name: str | None
    document: str | None
    date_time: str


@dataclass(frozen=True)
class ListMedResponseMetadata:
    total: float
    page: float
    page_size: float
    total_pages: float


@dataclass(frozen=True)
class ListWebhooksResponse:
    account_id: float
    webhooks: List[ListWebhooksResponseWebhooksItem]
    total: float


@dataclass(frozen=True)
class ListWebhooksResponseWebhooksItem:
    id: float
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    url: str
    headers: Dict[str, str]
    is_active: bool
    version: float
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class RegisterWebhookResponse:
    success: bool
    message: str


class ResendWebhookBody(TypedDict):
    url: NotRequired[str]


@dataclass(frozen=True)
class ResendWebhookResponse:
    message: str
    webhook_log_id: float
    sent_at: str
    status_code: float


@dataclass(frozen=True)
class ListEventsResponse:
    data: List[ListEventsResponseDataItem]
    metadata: ListEventsResponseMetadata


@dataclass(frozen=True)
class ListEventsResponseDataItem:
    id: str
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    created_at: str
    payload: Dict[str, Any]


@dataclass(frozen=True)
class ListEventsResponseMetadata:
    size: int
    has_more: bool
    next: str | None


@dataclass(frozen=True)
class GetEventResponse:
    id: str
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    created_at: str
    payload: Dict[str, Any]


class ReplayWebhookDeliveriesBody(TypedDict):
    since: str
    status: Literal["failed", "all"]
    type: NotRequired[Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]]


@dataclass(frozen=True)
class ReplayWebhookDeliveriesResponse:
    queued: int


@dataclass(frozen=True)
class GetBalancesResponse:
    data: List[GetBalancesResponseDataItem]


@dataclass(frozen=True)
class GetBalancesResponseDataItem:
    event_date: str
    balance_amount: GetBalancesResponseDataItemBalanceAmount


@dataclass(frozen=True)
class GetBalancesResponseDataItemBalanceAmount:
    available: Decimal
    blocked: Decimal
    overdraft: Decimal


class CreateDictTransferBody(TypedDict):
    pix_key: str
    creditor_document: NotRequired[str]
    priority: NotRequired[Literal["HIGH", "NORM"]]
    description: NotRequired[str]
    expiration: NotRequired[int]
    payment: CreateDictTransferBodyPayment
    ispb_deny: NotRequired[List[str]]
    payment_flow: NotRequired[str]


class CreateDictTransferBodyPayment(TypedDict):
    currency: Literal["BRL"]
    amount: Money


@dataclass(frozen=True)
class CreateDictTransferResponse:
    end_to_end_id: str
    event_date: str
    id: float
    payment: CreateDictTransferResponsePayment
    type: Literal["PENDING", "COMPLETED", "ERROR"]
    error_code: str | None = None
    error_message: str | None = None


@dataclass(frozen=True)
class CreateDictTransferResponsePayment:
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class GetDictTransferResponse:
    end_to_end_id: str
    event_date: str
    id: float
    payment: GetDictTransferResponsePayment
    type: Literal["PENDING", "COMPLETED", "ERROR"]
    error_code: str | None = None
    error_message: str | None = None


@dataclass(frozen=True)
class GetDictTransferResponsePayment:
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class GetCobResponse:
    calendario: GetCobResponseCalendario
    txid: str
    revisao: int
    loc: GetCobResponseLoc
    location: str
    status: str
    valor: GetCobResponseValor
    chave: str
    pix_copia_e_cola: str
    devedor: GetCobResponseDevedor | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: List[GetCobResponseInfoAdicionaisItem] | None = None
    pix: List[GetCobResponsePixItem] | None = None


@dataclass(frozen=True)
class GetCobResponseCalendario:
    criacao: str
    expiracao: int


@dataclass(frozen=True)
class GetCobResponseLoc:
    id: int
    txid: str
    location: str
    tipo_cob: Literal["cob"]
    criacao: str


@dataclass(frozen=True)
class GetCobResponseDevedor:
    nome: str
    cpf: str | None = None
    cnpj: str | None = None


@dataclass(frozen=True)
class GetCobResponseValor:
    original: Decimal
    modalidade_alteracao: int


@dataclass(frozen=True)
class GetCobResponseInfoAdicionaisItem:
    nome: str
    valor: str


@dataclass(frozen=True)
class GetCobResponsePixItem:
    end_to_end_id: str
    txid: str
    valor: Decimal
    chave: str
    horario: str
    devolucoes: List[Devolucao]


@dataclass(frozen=True)
class Devolucao:
    id: str
    rtr_id: str
    valor: Decimal
    natureza: Literal["ORIGINAL", "RETIRADA", "MED_OPERACIONAL", "MED_FRAUDE"]
    horario: DevolucaoHorario
    status: Literal["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"]
    descricao: str | None = None
    motivo: str | None = None


@dataclass(frozen=True)
class DevolucaoHorario:
    solicitacao: str
    liquidacao: str | None = None


class PutCobBody(TypedDict):
    calendario: PutCobBodyCalendario
    devedor: NotRequired[PutCobBodyDevedor]
    valor: PutCobBodyValor
    chave: str
    solicitacao_pagador: NotRequired[str]
    info_adicionais: NotRequired[List[PutCobBodyInfoAdicionaisItem]]


class PutCobBodyCalendario(TypedDict):
    expiracao: NotRequired[int]


class PutCobBodyDevedor(TypedDict):
    cpf: NotRequired[str]
    cnpj: NotRequired[str]
    nome: str


class PutCobBodyValor(TypedDict):
    original: MoneyText
    modalidade_alteracao: NotRequired[Literal[0, 1]]


class PutCobBodyInfoAdicionaisItem(TypedDict):
    nome: str
    valor: str


@dataclass(frozen=True)
class PutCobResponse:
    calendario: PutCobResponseCalendario
    txid: str
    revisao: int
    loc: PutCobResponseLoc
    location: str
    status: str
    valor: PutCobResponseValor
    chave: str
    pix_copia_e_cola: str
    devedor: PutCobResponseDevedor | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: List[PutCobResponseInfoAdicionaisItem] | None = None
    pix: List[PutCobResponsePixItem] | None = None


@dataclass(frozen=True)
class PutCobResponseCalendario:
    criacao: str
    expiracao: int


@dataclass(frozen=True)
class PutCobResponseLoc:
    id: int
    txid: str
    location: str
    tipo_cob: Literal["cob"]
    criacao: str


@dataclass(frozen=True)
class PutCobResponseDevedor:
    nome: str
    cpf: str | None = None
    cnpj: str | None = None


@dataclass(frozen=True)
class PutCobResponseValor:
    original: Decimal
    modalidade_alteracao: int


@dataclass(frozen=True)
class PutCobResponseInfoAdicionaisItem:
    nome: str
    valor: str


@dataclass(frozen=True)
class PutCobResponsePixItem:
    end_to_end_id: str
    txid: str
    valor: Decimal
    chave: str
    horario: str
    devolucoes: List[Devolucao]


class PatchCobBody(TypedDict):
    status: Literal["REMOVIDA_PELO_USUARIO_RECEBEDOR"]


@dataclass(frozen=True)
class PatchCobResponse:
    calendario: PatchCobResponseCalendario
    txid: str
    revisao: int
    loc: PatchCobResponseLoc
    location: str
    status: str
    valor: PatchCobResponseValor
    chave: str
    pix_copia_e_cola: str
    devedor: PatchCobResponseDevedor | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: List[PatchCobResponseInfoAdicionaisItem] | None = None
    pix: List[PatchCobResponsePixItem] | None = None


@dataclass(frozen=True)
class PatchCobResponseCalendario:
    criacao: str
    expiracao: int


@dataclass(frozen=True)
class PatchCobResponseLoc:
    id: int
    txid: str
    location: str
    tipo_cob: Literal["cob"]
    criacao: str


@dataclass(frozen=True)
class PatchCobResponseDevedor:
    nome: str
    cpf: str | None = None
    cnpj: str | None = None


@dataclass(frozen=True)
class PatchCobResponseValor:
    original: Decimal
    modalidade_alteracao: int


@dataclass(frozen=True)
class PatchCobResponseInfoAdicionaisItem:
    nome: str
    valor: str


@dataclass(frozen=True)
class PatchCobResponsePixItem:
    end_to_end_id: str
    txid: str
    valor: Decimal
    chave: str
    horario: str
    devolucoes: List[Devolucao]


@dataclass(frozen=True)
class GetDevolucaoResponse:
    id: str
    rtr_id: str
    valor: Decimal
    natureza: Literal["ORIGINAL", "RETIRADA", "MED_OPERACIONAL", "MED_FRAUDE"]
    horario: GetDevolucaoResponseHorario
    status: Literal["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"]
    descricao: str | None = None
    motivo: str | None = None


@dataclass(frozen=True)
class GetDevolucaoResponseHorario:
    solicitacao: str
    liquidacao: str | None = None


class PutDevolucaoBody(TypedDict):
    valor: MoneyText
    natureza: NotRequired[Literal["ORIGINAL", "RETIRADA"]]
    descricao: NotRequired[str]


@dataclass(frozen=True)
class PutDevolucaoResponse:
    id: str
    rtr_id: str
    valor: Decimal
    natureza: Literal["ORIGINAL", "RETIRADA", "MED_OPERACIONAL", "MED_FRAUDE"]
    horario: PutDevolucaoResponseHorario
    status: Literal["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"]
    descricao: str | None = None
    motivo: str | None = None


@dataclass(frozen=True)
class PutDevolucaoResponseHorario:
    solicitacao: str
    liquidacao: str | None = None


class OauthTokenBody(TypedDict):
    client_id: str
    client_secret: str


@dataclass(frozen=True)
class OauthTokenResponse:
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: float
    scope: str


@dataclass(frozen=True)
class ListAccountsResponse:
    data: List[ListAccountsResponseDataItem]
    metadata: ListAccountsResponseMetadata


@dataclass(frozen=True)
class ListAccountsResponseDataItem:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str
    balance: ListAccountsResponseDataItemBalance


@dataclass(frozen=True)
class ListAccountsResponseDataItemBalance:
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class ListAccountsResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class CreateAccountBody(TypedDict):
    name: str
    document: str
    type: NotRequired[Literal["INDIVIDUAL", "COMPANY"]]


@dataclass(frozen=True)
class CreateAccountResponse:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str


@dataclass(frozen=True)
class GetAccountResponse:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str
    balance: GetAccountResponseBalance
    limits: GetAccountResponseLimits
    fees: GetAccountResponseFees
    split_frequency: str


@dataclass(frozen=True)
class GetAccountResponseBalance:
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class GetAccountResponseLimits:
    per_transaction: Decimal
    daily: Decimal
    nightly: Decimal


@dataclass(frozen=True)
class GetAccountResponseFees:
    cash_in: GetAccountResponseFeesCashIn
    cash_out: GetAccountResponseFeesCashOut


@dataclass(frozen=True)
class GetAccountResponseFeesCashIn:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class GetAccountResponseFeesCashOut:
    fixed: Decimal
    percent: Decimal


class UpdateAccountBody(TypedDict):
    name: NotRequired[str]


@dataclass(frozen=True)
class UpdateAccountResponse:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str
    balance: UpdateAccountResponseBalance
    limits: UpdateAccountResponseLimits
    fees: UpdateAccountResponseFees
    split_frequency: str


@dataclass(frozen=True)
class UpdateAccountResponseBalance:
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class UpdateAccountResponseLimits:
    per_transaction: Decimal
    daily: Decimal
    nightly: Decimal


@dataclass(frozen=True)
class UpdateAccountResponseFees:
    cash_in: UpdateAccountResponseFeesCashIn
    cash_out: UpdateAccountResponseFeesCashOut


@dataclass(frozen=True)
class UpdateAccountResponseFeesCashIn:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class UpdateAccountResponseFeesCashOut:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class ListCertificatesResponse:
    data: List[ListCertificatesResponseDataItem]
    metadata: ListCertificatesResponseMetadata


@dataclass(frozen=True)
class ListCertificatesResponseDataItem:
    fingerprint: str
    subject: str
    not_before: str
    not_after: str
    revoked: bool
    revoked_at: str | None
    created_at: str


@dataclass(frozen=True)
class ListCertificatesResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class RegisterCertificateBody(TypedDict):
    pem: NotRequired[str]


@dataclass(frozen=True)
class RegisterCertificateResponse:
    fingerprint: str
    subject: str
    not_before: str
    not_after: str
    certificate_pem: str | None = None
    private_key_pem: str | None = None


@dataclass(frozen=True)
class ListCredentialsResponse:
    data: List[ListCredentialsResponseDataItem]
    metadata: ListCredentialsResponseMetadata


@dataclass(frozen=True)
class ListCredentialsResponseDataItem:
    client_id: str
    scopes: List[str]
    status: Literal["ACTIVE", "REVOKED"]
    created_at: str
    revoked_at: str | None


@dataclass(frozen=True)
class ListCredentialsResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class CreateCredentialsBody(TypedDict):
    client_secret: NotRequired[str]
    scopes: NotRequired[List[Literal["pix:read", "pix:write", "balance:read", "webhook:read", "webhook:write"]]]


@dataclass(frozen=True)
class CreateCredentialsResponse:
    client_id: str
    client_secret: str
    scopes: List[str]


class UpdateLimitsBody(TypedDict):
    per_transaction: NotRequired[Money]
    daily: NotRequired[Money]
    nightly: NotRequired[Money]


@dataclass(frozen=True)
class UpdateLimitsResponse:
    per_transaction: Decimal
    daily: Decimal
    nightly: Decimal


class UpdateFeesBody(TypedDict):
    cash_in: NotRequired[UpdateFeesBodyCashIn]
    cash_out: NotRequired[UpdateFeesBodyCashOut]


class UpdateFeesBodyCashIn(TypedDict):
    fixed: Money
    percent: Money


class UpdateFeesBodyCashOut(TypedDict):
    fixed: Money
    percent: Money


@dataclass(frozen=True)
class UpdateFeesResponse:
    cash_in: UpdateFeesResponseCashIn
    cash_out: UpdateFeesResponseCashOut


@dataclass(frozen=True)
class UpdateFeesResponseCashIn:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class UpdateFeesResponseCashOut:
    fixed: Decimal
    percent: Decimal


class UpdateSplitFrequencyBody(TypedDict):
    frequency: Literal["IMMEDIATE", "HOURLY", "DAILY"]


@dataclass(frozen=True)
class UpdateSplitFrequencyResponse:
    frequency: Literal["IMMEDIATE", "HOURLY", "DAILY"]


@dataclass(frozen=True)
class ListAccountWebhooksResponse:
    data: List[ListAccountWebhooksResponseDataItem]
    metadata: ListAccountWebhooksResponseMetadata


@dataclass(frozen=True)
class ListAccountWebhooksResponseDataItem:
    id: float
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    url: str
    headers: Dict[str, str]
    is_active: bool
    version: float
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class ListAccountWebhooksResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class RegisterAccountWebhookBody(TypedDict):
    event_type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    url: str
    headers: NotRequired[List[RegisterAccountWebhookBodyHeadersItem]]


class RegisterAccountWebhookBodyHeadersItem(TypedDict):
    key: str
    value: str


@dataclass(frozen=True)
class RegisterAccountWebhookResponse:
    id: float
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    url: str
    headers: Dict[str, str]
    is_active: bool
    version: float
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class GetWebhookSecretResponse:
    secret: str


@dataclass(frozen=True)
class LedgerCheckResponse:
    ok: bool
    checked_at: str
    postings: LedgerCheckResponsePostings
    unbalanced_journals: LedgerCheckResponseUnbalancedJournals
    drift: LedgerCheckResponseDrift
    negative_balances: LedgerCheckResponseNegativeBalances
    system_accounts: List[LedgerCheckResponseSystemAccountsItem]


@dataclass(frozen=True)
class LedgerCheckResponsePostings:
    count: int
    total: Decimal


@dataclass(frozen=True)
class LedgerCheckResponseUnbalancedJournals:
    count: int
    items: List[LedgerCheckResponseUnbalancedJournalsItemsItem]


@dataclass(frozen=True)
class LedgerCheckResponseUnbalancedJournalsItemsItem:
    journal_id: str
    sum: Decimal


@dataclass(frozen=True)
class LedgerCheckResponseDrift:
    count: int
    items: List[LedgerCheckResponseDriftItemsItem]


@dataclass(frozen=True)
class LedgerCheckResponseDriftItemsItem:
    account_id: int
    available: Decimal
    blocked: Decimal
    posted_available: Decimal
    posted_blocked: Decimal


@dataclass(frozen=True)
class LedgerCheckResponseNegativeBalances:
    count: int
    items: List[LedgerCheckResponseNegativeBalancesItemsItem]


@dataclass(frozen=True)
class LedgerCheckResponseNegativeBalancesItemsItem:
    account_id: int
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class LedgerCheckResponseSystemAccountsItem:
    code: str
    balance: Decimal


@dataclass(frozen=True)
class NetworkStatusResponse:
    adapter: Literal["sandbox", "provider"]
    ledger_account: str
    payouts_awaiting_outcome: NetworkStatusResponsePayoutsAwaitingOutcome
    suspense: NetworkStatusResponseSuspense
    provider: NetworkStatusResponseProvider | None


@dataclass(frozen=True)
class NetworkStatusResponsePayoutsAwaitingOutcome:
    count: int
    oldest_created_at: str | None


@dataclass(frozen=True)
class NetworkStatusResponseSuspense:
    count: int
    total: Decimal


@dataclass(frozen=True)
class NetworkStatusResponseProvider:
    url: str
    circuit: NetworkStatusResponseProviderCircuit
    token: NetworkStatusResponseProviderToken
    last_notice: NetworkStatusResponseProviderLastNotice | None
    webhooks: Dict[str, Any] | None
    last_reconciliation: Dict[str, Any] | None
    charges_awaiting_outcome: int
    last_statement_check: NetworkStatusResponseProviderLastStatementCheck | None


@dataclass(frozen=True)
class NetworkStatusResponseProviderCircuit:
    state: Literal["closed", "open", "half_open"]
    consecutive_failures: int
    opened_at: str | None
    retry_at: str | None
    last_failure: str | None


@dataclass(frozen=True)
class NetworkStatusResponseProviderToken:
    expires_at: str | None
    last_renewed_at: str | None
    last_error: str | None


@dataclass(frozen=True)
class NetworkStatusResponseProviderLastNotice:
    webhook_id: str
    event: str
    received_at: str
    outcome: str | None


@dataclass(frozen=True)
class NetworkStatusResponseProviderLastStatementCheck:
    checked_at: str
    provider_balance: Decimal | None
    our_balance: Decimal
    difference: Decimal | None
    payouts_awaiting: int
    error: str | None


@dataclass(frozen=True)
class ListSuspenseResponse:
    data: List[ListSuspenseResponseDataItem]
    metadata: ListSuspenseResponseMetadata
    total: int
    page: int
    size: int


@dataclass(frozen=True)
class ListSuspenseResponseDataItem:
    id: int
    status: Literal["OPEN", "ASSIGNED"]
    amount: Decimal
    end_to_end_id: str
    payer: ListSuspenseResponseDataItemPayer
    reason: str
    charge_reference: str | None
    provider_transaction_id: str | None
    received_at: str
    assigned_account_id: int | None
    assigned_transaction_id: str | None
    assigned_at: str | None


@dataclass(frozen=True)
class ListSuspenseResponseDataItemPayer:
    name: str
    document: str | None
    ispb: str


@dataclass(frozen=True)
class ListSuspenseResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class AssignSuspenseBody(TypedDict):
    account_id: int


@dataclass(frozen=True)
class AssignSuspenseResponse:
    id: int
    status: Literal["OPEN", "ASSIGNED"]
    amount: Decimal
    end_to_end_id: str
    payer: AssignSuspenseResponsePayer
    reason: str
    charge_reference: str | None
    provider_transaction_id: str | None
    received_at: str
    assigned_account_id: int | None
    assigned_transaction_id: str | None
    assigned_at: str | None


@dataclass(frozen=True)
class AssignSuspenseResponsePayer:
    name: str
    document: str | None
    ispb: str


@dataclass(frozen=True)
class RunStatementCheckResponse:
    id: int
    checked_at: str
    provider_balance: Decimal | None
    our_balance: Decimal
    difference: Decimal | None
    payouts_awaiting: int
    error: str | None


@dataclass(frozen=True)
class ListOperatorsResponse:
    data: List[ListOperatorsResponseDataItem]
    metadata: ListOperatorsResponseMetadata


@dataclass(frozen=True)
class ListOperatorsResponseDataItem:
    id: int
    email: str
    created_at: str


@dataclass(frozen=True)
class ListOperatorsResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class CreateOperatorBody(TypedDict):
    email: str
    password: str


@dataclass(frozen=True)
class CreateOperatorResponse:
    id: float
    email: str


@dataclass(frozen=True)
class ListMembersResponse:
    data: List[ListMembersResponseDataItem]
    metadata: ListMembersResponseMetadata


@dataclass(frozen=True)
class ListMembersResponseDataItem:
    id: int
    email: str
    status: Literal["INVITED", "ACTIVE"]
    created_at: str


@dataclass(frozen=True)
class ListMembersResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class InviteMemberBody(TypedDict):
    email: str


@dataclass(frozen=True)
class InviteMemberResponse:
    id: float
    email: str
    invitation_url: str


@dataclass(frozen=True)
class ListWebhookDeliveriesResponse:
    data: List[ListWebhookDeliveriesResponseDataItem]
    metadata: ListWebhookDeliveriesResponseMetadata


@dataclass(frozen=True)
class ListWebhookDeliveriesResponseDataItem:
    id: int
    kind: Literal["delivery", "resend", "test"]
    event: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    event_id: str | None
    transaction_id: str | None
    webhook_id: int | None
    url: str
    status: Literal["delivered", "failed"]
    status_code: int | None
    duration_ms: int
    attempt: int | None
    next_attempt_at: str | None
    error: str | None
    response_excerpt: str | None
    sent_at: str


@dataclass(frozen=True)
class ListWebhookDeliveriesResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


@dataclass(frozen=True)
class RotateWebhookSecretResponse:
    secret: str
    previous_secret_valid_until: str | None


class SendTestWebhookBody(TypedDict):
    event: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]


@dataclass(frozen=True)
class SendTestWebhookResponse:
    event: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    event_id: str
    attempts: List[SendTestWebhookResponseAttemptsItem]


@dataclass(frozen=True)
class SendTestWebhookResponseAttemptsItem:
    webhook_log_id: int
    webhook_id: int
    url: str
    status_code: int | None
    duration_ms: int
    delivered: bool
    error: str | None
    sent_at: str


@dataclass(frozen=True)
class RotateSigningKeyResponse:
    kid: str
    previous_kid: str | None
    previous_key_valid_until: str | None


@dataclass(frozen=True)
class SuspendAccountResponse:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str
    balance: SuspendAccountResponseBalance
    limits: SuspendAccountResponseLimits
    fees: SuspendAccountResponseFees
    split_frequency: str


@dataclass(frozen=True)
class SuspendAccountResponseBalance:
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class SuspendAccountResponseLimits:
    per_transaction: Decimal
    daily: Decimal
    nightly: Decimal


@dataclass(frozen=True)
class SuspendAccountResponseFees:
    cash_in: SuspendAccountResponseFeesCashIn
    cash_out: SuspendAccountResponseFeesCashOut


@dataclass(frozen=True)
class SuspendAccountResponseFeesCashIn:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class SuspendAccountResponseFeesCashOut:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class ReactivateAccountResponse:
    id: float
    name: str
    document: str
    type: Literal["INDIVIDUAL", "COMPANY"]
    pix_key: str
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: str
    balance: ReactivateAccountResponseBalance
    limits: ReactivateAccountResponseLimits
    fees: ReactivateAccountResponseFees
    split_frequency: str


@dataclass(frozen=True)
class ReactivateAccountResponseBalance:
    available: Decimal
    blocked: Decimal


@dataclass(frozen=True)
class ReactivateAccountResponseLimits:
    per_transaction: Decimal
    daily: Decimal
    nightly: Decimal


@dataclass(frozen=True)
class ReactivateAccountResponseFees:
    cash_in: ReactivateAccountResponseFeesCashIn
    cash_out: ReactivateAccountResponseFeesCashOut


@dataclass(frozen=True)
class ReactivateAccountResponseFeesCashIn:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class ReactivateAccountResponseFeesCashOut:
    fixed: Decimal
    percent: Decimal


@dataclass(frozen=True)
class ListAccountEventsResponse:
    data: List[ListAccountEventsResponseDataItem]
    metadata: ListAccountEventsResponseMetadata


@dataclass(frozen=True)
class ListAccountEventsResponseDataItem:
    id: str
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    created_at: str
    payload: Dict[str, Any]


@dataclass(frozen=True)
class ListAccountEventsResponseMetadata:
    size: int
    has_more: bool
    next: str | None


@dataclass(frozen=True)
class GetAccountEventResponse:
    id: str
    type: Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]
    created_at: str
    payload: Dict[str, Any]


class ReplayAccountDeliveriesBody(TypedDict):
    since: str
    status: Literal["failed", "all"]
    type: NotRequired[Literal["cash_in", "cash_out", "refund_in", "refund_out", "med_created", "med_accepted", "med_rejected"]]


@dataclass(frozen=True)
class ReplayAccountDeliveriesResponse:
    queued: int


class CreateDepositBody(TypedDict):
    account_id: NotRequired[int]
    value: NotRequired[Money]
    amount: NotRequired[Money]
    payer: NotRequired[CreateDepositBodyPayer]


class CreateDepositBodyPayer(TypedDict):
    name: str
    document: str
    ispb: str


@dataclass(frozen=True)
class CreateDepositResponse:
    id: float
    transaction_id: str
    external_id: str | None
    type: str
    status: str
    movement_type: str
    original_amount: Decimal
    fee_amount: Decimal
    final_amount: Decimal
    end_to_end_id: str | None
    counterpart: Any
    created_at: str
    processed_at: str | None


class RefundPayoutBody(TypedDict):
    account_id: NotRequired[int]
    amount: Money


@dataclass(frozen=True)
class RefundPayoutResponse:
    id: float
    transaction_id: str
    external_id: str | None
    type: str
    status: str
    movement_type: str
    original_amount: Decimal
    fee_amount: Decimal
    final_amount: Decimal
    end_to_end_id: str | None
    counterpart: Any
    created_at: str
    processed_at: str | None


class RegisterDictKeyBody(TypedDict):
    account_id: NotRequired[int]
    key: str
    key_type: Literal["CPF", "CNPJ", "EMAIL", "PHONE", "EVP", "DOCUMENT", "RANDOM"]
    name: str
    document: str
    ispb: str
    branch: NotRequired[str]
    account: NotRequired[str]


@dataclass(frozen=True)
class RegisterDictKeyResponse:
    key: str
    key_type: str
    name: str
    document: str
    ispb: str
    bank_name: str
    branch: str | None
    account: str | None


class AdvanceClockBody(TypedDict):
    seconds: int


@dataclass(frozen=True)
class AdvanceClockResponse:
    now: str
    jobs_run: float


class PayChargeBody(TypedDict):
    account_id: NotRequired[int]
    amount: NotRequired[Money]
    payer: NotRequired[PayChargeBodyPayer]


class PayChargeBodyPayer(TypedDict):
    name: str
    document: str
    ispb: str


@dataclass(frozen=True)
class PayChargeResponse:
    id: float
    transaction_id: str
    external_id: str | None
    type: str
    status: str
    movement_type: str
    original_amount: Decimal
    fee_amount: Decimal
    final_amount: Decimal
    end_to_end_id: str | None
    counterpart: Any
    created_at: str
    processed_at: str | None


class OpenMedBody(TypedDict):
    account_id: NotRequired[int]
    end_to_end_id: str
    cause: NotRequired[Literal["UNAUTHORIZED_TRANSACTION", "SOCIAL_ENGINEERING", "ACCOUNT_TAKEOVER", "SCAM", "COERCION", "OPERATIONAL_FLAW", "OTHER"]]
    description: NotRequired[str]
    amount: NotRequired[Money]


@dataclass(frozen=True)
class OpenMedResponse:
    id: float
    end_to_end: str
    status: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"]
    reason: Literal["REFUND_REQUEST", "REFUND_CANCELLATION"]
    cause: str | None
    description: str | None
    analysis_result: Literal["APPROVED", "REJECTED"] | None
    analysis_details: str | None
    requesting_bank: OpenMedResponseRequestingBank
    contested_bank: OpenMedResponseContestedBank
    transaction: OpenMedResponseTransaction | None
    is_reconciled: bool
    original_transaction_id: float | None
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class OpenMedResponseRequestingBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class OpenMedResponseContestedBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class OpenMedResponseTransaction:
    amount: float
    type: str
    transaction_type: str
    name: str | None
    document: str | None
    date_time: str


class TransitionMedBody(TypedDict):
    account_id: NotRequired[int]
    to: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"]
    analysis_result: NotRequired[Literal["APPROVED", "REJECTED"]]
    analysis_details: NotRequired[str]


@dataclass(frozen=True)
class TransitionMedResponse:
    id: float
    end_to_end: str
    status: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"]
    reason: Literal["REFUND_REQUEST", "REFUND_CANCELLATION"]
    cause: str | None
    description: str | None
    analysis_result: Literal["APPROVED", "REJECTED"] | None
    analysis_details: str | None
    requesting_bank: TransitionMedResponseRequestingBank
    contested_bank: TransitionMedResponseContestedBank
    transaction: TransitionMedResponseTransaction | None
    is_reconciled: bool
    original_transaction_id: float | None
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class TransitionMedResponseRequestingBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class TransitionMedResponseContestedBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class TransitionMedResponseTransaction:
    amount: float
    type: str
    transaction_type: str
    name: str | None
    document: str | None
    date_time: str


@dataclass(frozen=True)
class ListTestClocksResponse:
    data: List[TestClock]
    metadata: ListTestClocksResponseMetadata


@dataclass(frozen=True)
class TestClock:
    id: str
    name: str | None
    frozen_time: str
    status: Literal["ready", "advancing"]
    account_ids: List[int]


@dataclass(frozen=True)
class ListTestClocksResponseMetadata:
    total: int
    page: int
    page_size: int
    total_pages: int


class CreateTestClockBody(TypedDict):
    frozen_time: str
    account_ids: List[int]
    name: NotRequired[str]


@dataclass(frozen=True)
class CreateTestClockResponse:
    id: str
    name: str | None
    frozen_time: str
    status: Literal["ready", "advancing"]
    account_ids: List[int]


@dataclass(frozen=True)
class GetTestClockResponse:
    id: str
    name: str | None
    frozen_time: str
    status: Literal["ready", "advancing"]
    account_ids: List[int]


class AdvanceTestClockBody(TypedDict):
    to: str


@dataclass(frozen=True)
class AdvanceTestClockResponse:
    id: str
    name: str | None
    frozen_time: str
    status: Literal["ready", "advancing"]
    account_ids: List[int]


@dataclass(frozen=True)
class TransactionEvent:
    """cash_in, cash_out, refund_in and refund_out of the full family (reversals carry parentTransaction)"""

    event: Literal["CashIn", "CashOut", "CashInReversal", "CashOutReversal"]
    status: str
    transaction_type: Literal["PIX"]
    movement_type: Literal["CREDIT", "DEBIT"]
    transaction_id: str
    external_id: str | None
    end_to_end_id: str | None
    pix_key: str | None
    fee_amount: Decimal
    original_amount: Decimal
    final_amount: Decimal
    processing_date: str
    error_code: str | None
    error_message: str | None
    counterpart: TransactionEventCounterpart
    metadata: Dict[str, Any]
    parent_transaction: TransactionEventParentTransaction | None = None


@dataclass(frozen=True)
class TransactionEventCounterpart:
    name: str | None
    document: str | None
    bank: TransactionEventCounterpartBank


@dataclass(frozen=True)
class TransactionEventCounterpartBank:
    bank_ispb: str | None
    bank_name: str | None
    bank_code: str | None
    account_branch: str | None
    account_number: str | None


@dataclass(frozen=True)
class TransactionEventParentTransaction:
    transaction_id: str
    external_id: str | None
    end_to_end_id: str | None
    processing_date: str
    was_total_refunded: bool
    remaining_amount_for_refund: Decimal
    metadata: Dict[str, Any]
    counterpart: TransactionEventParentTransactionCounterpart


@dataclass(frozen=True)
class TransactionEventParentTransactionCounterpart:
    name: str | None
    document: str | None
    bank: TransactionEventParentTransactionCounterpartBank


@dataclass(frozen=True)
class TransactionEventParentTransactionCounterpartBank:
    bank_ispb: str | None
    bank_name: str | None
    bank_code: str | None
    account_branch: str | None
    account_number: str | None


@dataclass(frozen=True)
class ReceiveEvent:
    """cash_in of a paid cob (compatible family, version-2 envelope)"""

    type: Literal["RECEIVE"]
    data: ReceiveEventData


@dataclass(frozen=True)
class ReceiveEventData:
    id: float
    tx_id: str
    status: Literal["LIQUIDATED"]
    payment: ReceiveEventDataPayment
    end_to_end_id: str | None
    debtor_account: ReceiveEventDataDebtorAccount


@dataclass(frozen=True)
class ReceiveEventDataPayment:
    amount: Decimal
    currency: Literal["BRL"]


@dataclass(frozen=True)
class ReceiveEventDataDebtorAccount:
    name: str | None
    document: str | None


@dataclass(frozen=True)
class TransferEvent:
    """cash_out of a POST /dict/pix transfer (compatible family, version-2 envelope)"""

    type: Literal["TRANSFER"]
    data: TransferEventData


@dataclass(frozen=True)
class TransferEventData:
    id: float
    tx_id: None
    pix_key: str | None
    status: Literal["LIQUIDATED", "ERROR"]
    payment: TransferEventDataPayment
    end_to_end_id: str | None
    credit_debit_type: Literal["DEBIT"]
    idempotency_key: str | None
    creditor_account: TransferEventDataCreditorAccount
    remittance_information: str | None
    error_code: str | None = None
    error_message: str | None = None


@dataclass(frozen=True)
class TransferEventDataPayment:
    amount: Decimal
    currency: Literal["BRL"]


@dataclass(frozen=True)
class TransferEventDataCreditorAccount:
    name: str | None
    document: str | None
    ispb: str | None


@dataclass(frozen=True)
class RefundEvent:
    """refund_in of a devolução (compatible family, version-2 envelope)"""

    type: Literal["REFUND"]
    data: RefundEventData


@dataclass(frozen=True)
class RefundEventData:
    id: float
    tx_id: str | None
    status: Literal["REFUNDED", "ERROR"]
    payment: RefundEventDataPayment
    refunds: List[RefundEventDataRefundsItem]
    end_to_end_id: str | None
    credit_debit_type: Literal["DEBIT"]


@dataclass(frozen=True)
class RefundEventDataPayment:
    amount: Decimal
    currency: Literal["BRL"]


@dataclass(frozen=True)
class RefundEventDataRefundsItem:
    id: str
    status: Literal["LIQUIDATED", "ERROR"]
    payment: RefundEventDataRefundsItemPayment
    end_to_end_id: str | None
    event_date: str
    information: str | None
    error_code: str | None = None
    error_message: str | None = None


@dataclass(frozen=True)
class RefundEventDataRefundsItemPayment:
    amount: Decimal
    currency: Literal["BRL"]


@dataclass(frozen=True)
class MedEvent:
    """med_created, med_accepted and med_rejected"""

    event: Literal["MedCreated", "MedAccepted", "MedRejected"]
    med: MedEventMed


@dataclass(frozen=True)
class MedEventMed:
    id: float
    end_to_end: str
    status: Literal["OPEN", "RECEIVED", "CANCELLED", "ANALYZED"]
    reason: Literal["REFUND_REQUEST", "REFUND_CANCELLATION"]
    cause: str | None
    description: str | None
    analysis_result: Literal["APPROVED", "REJECTED"] | None
    analysis_details: str | None
    requesting_bank: MedEventMedRequestingBank
    contested_bank: MedEventMedContestedBank
    transaction: MedEventMedTransaction | None
    is_reconciled: bool
    original_transaction_id: float | None
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class MedEventMedRequestingBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class MedEventMedContestedBank:
    ispb: str
    name: str


@dataclass(frozen=True)
class MedEventMedTransaction:
    amount: float
    type: str
    transaction_type: str
    name: str | None
    document: str | None
    date_time: str


#: Every body the service sends to a webhook URL (the document's `webhooks`).
WebhookEvent = TransactionEvent | ReceiveEvent | TransferEvent | RefundEvent | MedEvent

register_wire_names({
    CreateTokenBody: {"client_id": "clientId", "client_secret": "clientSecret"},
    GetBalanceResponse: {"gross_balance": "grossBalance", "blocked_balance": "blockedBalance", "net_balance": "netBalance", "consulted_at": "consultedAt"},
    CreateCashInBodyTransaction: {"external_id": "externalId", "expiration_time": "expirationTime", "generate_qr_code": "generateQrCode"},
    CreateCashInBodyPayer: {"full_name": "fullName"},
    CreateCashInBodySplitsItem: {"pix_key": "pixKey", "pix_key_type": "pixKeyType"},
    CreateCashInBody: {"additional_info": "additionalInfo"},
    CreateCashInResponse: {"transaction_id": "transactionId", "correlation_id": "correlationId", "external_id": "externalId", "pix_code": "pixCode", "generate_time": "generateTime", "expiration_date": "expirationDate", "qr_code_image": "qrCodeImage"},
    CreateCashOutBodyDetails: {"key_type": "keyType"},
    CreateCashOutBody: {"external_id": "externalId"},
    CreateCashOutResponse: {"transaction_id": "transactionId", "external_id": "externalId", "generate_time": "generateTime"},
    CreateCashOutQrCodeBody: {"qr_code": "qrCode", "external_id": "externalId"},
    CreateCashOutQrCodeResponse: {"transaction_id": "transactionId", "external_id": "externalId", "generate_time": "generateTime"},
    ListTransactionsResponseDataItemCounterpartBank: {"bank_ispb": "bankISPB", "bank_name": "bankName", "bank_code": "bankCode", "account_branch": "accountBranch", "account_number": "accountNumber"},
    ListTransactionsResponseDataItem: {"transaction_id": "transactionId", "external_id": "externalId", "operation_type": "operationType", "movement_type": "movementType", "original_amount": "originalAmount", "fee_amount": "feeAmount", "final_amount": "finalAmount", "end_to_end_id": "endToEndId", "created_at": "createdAt", "processed_at": "processedAt"},
    ListTransactionsResponseMetadata: {"total_pages": "totalPages", "has_next": "hasNext", "has_previous": "hasPrevious"},
    GetTransactionResponse: {"external_id": "externalId", "original_amount": "originalAmount", "fee_amount": "feeAmount", "final_amount": "finalAmount", "e2e_id": "e2eId", "counterpart_name": "counterpartName", "counterpart_document": "counterpartDocument", "counterpart_account_bank_code": "counterpartAccountBankCode", "counterpart_account_branch": "counterpartAccountBranch", "counterpart_account_number": "counterpartAccountNumber", "counterpart_account_ispb": "counterpartAccountIspb", "counterpart_account_bank_name": "counterpartAccountBankName", "created_at": "createdAt", "updated_at": "updatedAt", "processed_at": "processedAt"},
    CreateRefundInBody: {"refund_value": "refundValue", "external_id": "externalId"},
    CreateRefundInResponse: {"transaction_id": "transactionId", "external_id": "externalId", "refund_value": "refundValue", "provider_transaction_id": "providerTransactionId", "generate_time": "generateTime"},
    MedTransaction: {"transaction_type": "transactionType", "date_time": "dateTime"},
    Med: {"end_to_end": "endToEnd", "analysis_result": "analysisResult", "analysis_details": "analysisDetails", "requesting_bank": "requestingBank", "contested_bank": "contestedBank", "is_reconciled": "isReconciled", "original_transaction_id": "originalTransactionId", "created_at": "createdAt", "updated_at": "updatedAt"},
    ListMedResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    ListWebhooksResponseWebhooksItem: {"is_active": "isActive", "created_at": "createdAt", "updated_at": "updatedAt"},
    ListWebhooksResponse: {"account_id": "accountId"},
    ResendWebhookResponse: {"webhook_log_id": "webhookLogId", "sent_at": "sentAt", "status_code": "statusCode"},
    ListEventsResponseDataItem: {"created_at": "createdAt"},
    ListEventsResponseMetadata: {"has_more": "hasMore"},
    GetEventResponse: {"created_at": "createdAt"},
    GetBalancesResponseDataItem: {"event_date": "eventDate", "balance_amount": "balanceAmount"},
    CreateDictTransferBody: {"pix_key": "pixKey", "creditor_document": "creditorDocument", "ispb_deny": "ispbDeny", "payment_flow": "paymentFlow"},
    CreateDictTransferResponse: {"end_to_end_id": "endToEndId", "event_date": "eventDate", "error_code": "errorCode", "error_message": "errorMessage"},
    GetDictTransferResponse: {"end_to_end_id": "endToEndId", "event_date": "eventDate", "error_code": "errorCode", "error_message": "errorMessage"},
    GetCobResponseLoc: {"tipo_cob": "tipoCob"},
    GetCobResponseValor: {"modalidade_alteracao": "modalidadeAlteracao"},
    Devolucao: {"rtr_id": "rtrId"},
    GetCobResponsePixItem: {"end_to_end_id": "endToEndId"},
    GetCobResponse: {"solicitacao_pagador": "solicitacaoPagador", "info_adicionais": "infoAdicionais", "pix_copia_e_cola": "pixCopiaECola"},
    PutCobBodyValor: {"modalidade_alteracao": "modalidadeAlteracao"},
    PutCobBody: {"solicitacao_pagador": "solicitacaoPagador", "info_adicionais": "infoAdicionais"},
    PutCobResponseLoc: {"tipo_cob": "tipoCob"},
    PutCobResponseValor: {"modalidade_alteracao": "modalidadeAlteracao"},
    PutCobResponsePixItem: {"end_to_end_id": "endToEndId"},
    PutCobResponse: {"solicitacao_pagador": "solicitacaoPagador", "info_adicionais": "infoAdicionais", "pix_copia_e_cola": "pixCopiaECola"},
    PatchCobResponseLoc: {"tipo_cob": "tipoCob"},
    PatchCobResponseValor: {"modalidade_alteracao": "modalidadeAlteracao"},
    PatchCobResponsePixItem: {"end_to_end_id": "endToEndId"},
    PatchCobResponse: {"solicitacao_pagador": "solicitacaoPagador", "info_adicionais": "infoAdicionais", "pix_copia_e_cola": "pixCopiaECola"},
    GetDevolucaoResponse: {"rtr_id": "rtrId"},
    PutDevolucaoResponse: {"rtr_id": "rtrId"},
    OauthTokenBody: {"client_id": "clientId", "client_secret": "clientSecret"},
    ListAccountsResponseDataItem: {"pix_key": "pixKey", "created_at": "createdAt"},
    ListAccountsResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    CreateAccountResponse: {"pix_key": "pixKey", "created_at": "createdAt"},
    GetAccountResponseLimits: {"per_transaction": "perTransaction"},
    GetAccountResponseFees: {"cash_in": "cashIn", "cash_out": "cashOut"},
    GetAccountResponse: {"pix_key": "pixKey", "created_at": "createdAt", "split_frequency": "splitFrequency"},
    UpdateAccountResponseLimits: {"per_transaction": "perTransaction"},
    UpdateAccountResponseFees: {"cash_in": "cashIn", "cash_out": "cashOut"},
    UpdateAccountResponse: {"pix_key": "pixKey", "created_at": "createdAt", "split_frequency": "splitFrequency"},
    ListCertificatesResponseDataItem: {"not_before": "notBefore", "not_after": "notAfter", "revoked_at": "revokedAt", "created_at": "createdAt"},
    ListCertificatesResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    RegisterCertificateResponse: {"not_before": "notBefore", "not_after": "notAfter", "certificate_pem": "certificatePem", "private_key_pem": "privateKeyPem"},
    ListCredentialsResponseDataItem: {"client_id": "clientId", "created_at": "createdAt", "revoked_at": "revokedAt"},
    ListCredentialsResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    CreateCredentialsBody: {"client_secret": "clientSecret"},
    CreateCredentialsResponse: {"client_id": "clientId", "client_secret": "clientSecret"},
    UpdateLimitsBody: {"per_transaction": "perTransaction"},
    UpdateLimitsResponse: {"per_transaction": "perTransaction"},
    UpdateFeesBody: {"cash_in": "cashIn", "cash_out": "cashOut"},
    UpdateFeesResponse: {"cash_in": "cashIn", "cash_out": "cashOut"},
    ListAccountWebhooksResponseDataItem: {"is_active": "isActive", "created_at": "createdAt", "updated_at": "updatedAt"},
    ListAccountWebhooksResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    RegisterAccountWebhookBody: {"event_type": "eventType"},
    RegisterAccountWebhookResponse: {"is_active": "isActive", "created_at": "createdAt", "updated_at": "updatedAt"},
    LedgerCheckResponseUnbalancedJournalsItemsItem: {"journal_id": "journalId"},
    LedgerCheckResponseDriftItemsItem: {"account_id": "accountId", "posted_available": "postedAvailable", "posted_blocked": "postedBlocked"},
    LedgerCheckResponseNegativeBalancesItemsItem: {"account_id": "accountId"},
    LedgerCheckResponse: {"checked_at": "checkedAt", "unbalanced_journals": "unbalancedJournals", "negative_balances": "negativeBalances", "system_accounts": "systemAccounts"},
    NetworkStatusResponsePayoutsAwaitingOutcome: {"oldest_created_at": "oldestCreatedAt"},
    NetworkStatusResponseProviderCircuit: {"consecutive_failures": "consecutiveFailures", "opened_at": "openedAt", "retry_at": "retryAt", "last_failure": "lastFailure"},
    NetworkStatusResponseProviderToken: {"expires_at": "expiresAt", "last_renewed_at": "lastRenewedAt", "last_error": "lastError"},
    NetworkStatusResponseProviderLastNotice: {"webhook_id": "webhookId", "received_at": "receivedAt"},
    NetworkStatusResponseProviderLastStatementCheck: {"checked_at": "checkedAt", "provider_balance": "providerBalance", "our_balance": "ourBalance", "payouts_awaiting": "payoutsAwaiting"},
    NetworkStatusResponseProvider: {"last_notice": "lastNotice", "last_reconciliation": "lastReconciliation", "charges_awaiting_outcome": "chargesAwaitingOutcome", "last_statement_check": "lastStatementCheck"},
    NetworkStatusResponse: {"ledger_account": "ledgerAccount", "payouts_awaiting_outcome": "payoutsAwaitingOutcome"},
    ListSuspenseResponseDataItem: {"end_to_end_id": "endToEndId", "charge_reference": "chargeReference", "provider_transaction_id": "providerTransactionId", "received_at": "receivedAt", "assigned_account_id": "assignedAccountId", "assigned_transaction_id": "assignedTransactionId", "assigned_at": "assignedAt"},
    ListSuspenseResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    AssignSuspenseBody: {"account_id": "accountId"},
    AssignSuspenseResponse: {"end_to_end_id": "endToEndId", "charge_reference": "chargeReference", "provider_transaction_id": "providerTransactionId", "received_at": "receivedAt", "assigned_account_id": "assignedAccountId", "assigned_transaction_id": "assignedTransactionId", "assigned_at": "assignedAt"},
    RunStatementCheckResponse: {"checked_at": "checkedAt", "provider_balance": "providerBalance", "our_balance": "ourBalance", "payouts_awaiting": "payoutsAwaiting"},
    ListOperatorsResponseDataItem: {"created_at": "createdAt"},
    ListOperatorsResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    ListMembersResponseDataItem: {"created_at": "createdAt"},
    ListMembersResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    InviteMemberResponse: {"invitation_url": "invitationUrl"},
    ListWebhookDeliveriesResponseDataItem: {"event_id": "eventId", "transaction_id": "transactionId", "webhook_id": "webhookId", "status_code": "statusCode", "duration_ms": "durationMs", "next_attempt_at": "nextAttemptAt", "response_excerpt": "responseExcerpt", "sent_at": "sentAt"},
    ListWebhookDeliveriesResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    RotateWebhookSecretResponse: {"previous_secret_valid_until": "previousSecretValidUntil"},
    SendTestWebhookResponseAttemptsItem: {"webhook_log_id": "webhookLogId", "webhook_id": "webhookId", "status_code": "statusCode", "duration_ms": "durationMs", "sent_at": "sentAt"},
    SendTestWebhookResponse: {"event_id": "eventId"},
    RotateSigningKeyResponse: {"previous_kid": "previousKid", "previous_key_valid_until": "previousKeyValidUntil"},
    SuspendAccountResponseLimits: {"per_transaction": "perTransaction"},
    SuspendAccountResponseFees: {"cash_in": "cashIn", "cash_out": "cashOut"},
    SuspendAccountResponse: {"pix_key": "pixKey", "created_at": "createdAt", "split_frequency": "splitFrequency"},
    ReactivateAccountResponseLimits: {"per_transaction": "perTransaction"},
    ReactivateAccountResponseFees: {"cash_in": "cashIn", "cash_out": "cashOut"},
    ReactivateAccountResponse: {"pix_key": "pixKey", "created_at": "createdAt", "split_frequency": "splitFrequency"},
    ListAccountEventsResponseDataItem: {"created_at": "createdAt"},
    ListAccountEventsResponseMetadata: {"has_more": "hasMore"},
    GetAccountEventResponse: {"created_at": "createdAt"},
    CreateDepositBody: {"account_id": "accountId"},
    CreateDepositResponse: {"transaction_id": "transactionId", "external_id": "externalId", "movement_type": "movementType", "original_amount": "originalAmount", "fee_amount": "feeAmount", "final_amount": "finalAmount", "end_to_end_id": "endToEndId", "created_at": "createdAt", "processed_at": "processedAt"},
    RefundPayoutBody: {"account_id": "accountId"},
    RefundPayoutResponse: {"transaction_id": "transactionId", "external_id": "externalId", "movement_type": "movementType", "original_amount": "originalAmount", "fee_amount": "feeAmount", "final_amount": "finalAmount", "end_to_end_id": "endToEndId", "created_at": "createdAt", "processed_at": "processedAt"},
    RegisterDictKeyBody: {"account_id": "accountId", "key_type": "keyType"},
    RegisterDictKeyResponse: {"key_type": "keyType", "bank_name": "bankName"},
    AdvanceClockResponse: {"jobs_run": "jobsRun"},
    PayChargeBody: {"account_id": "accountId"},
    PayChargeResponse: {"transaction_id": "transactionId", "external_id": "externalId", "movement_type": "movementType", "original_amount": "originalAmount", "fee_amount": "feeAmount", "final_amount": "finalAmount", "end_to_end_id": "endToEndId", "created_at": "createdAt", "processed_at": "processedAt"},
    OpenMedBody: {"account_id": "accountId", "end_to_end_id": "endToEndId"},
    OpenMedResponseTransaction: {"transaction_type": "transactionType", "date_time": "dateTime"},
    OpenMedResponse: {"end_to_end": "endToEnd", "analysis_result": "analysisResult", "analysis_details": "analysisDetails", "requesting_bank": "requestingBank", "contested_bank": "contestedBank", "is_reconciled": "isReconciled", "original_transaction_id": "originalTransactionId", "created_at": "createdAt", "updated_at": "updatedAt"},
    TransitionMedBody: {"account_id": "accountId", "analysis_result": "analysisResult", "analysis_details": "analysisDetails"},
    TransitionMedResponseTransaction: {"transaction_type": "transactionType", "date_time": "dateTime"},
    TransitionMedResponse: {"end_to_end": "endToEnd", "analysis_result": "analysisResult", "analysis_details": "analysisDetails", "requesting_bank": "requestingBank", "contested_bank": "contestedBank", "is_reconciled": "isReconciled", "original_transaction_id": "originalTransactionId", "created_at": "createdAt", "updated_at": "updatedAt"},
    TestClock: {"frozen_time": "frozenTime", "account_ids": "accountIds"},
    ListTestClocksResponseMetadata: {"page_size": "pageSize", "total_pages": "totalPages"},
    CreateTestClockBody: {"frozen_time": "frozenTime", "account_ids": "accountIds"},
    CreateTestClockResponse: {"frozen_time": "frozenTime", "account_ids": "accountIds"},
    GetTestClockResponse: {"frozen_time": "frozenTime", "account_ids": "accountIds"},
    AdvanceTestClockResponse: {"frozen_time": "frozenTime", "account_ids": "accountIds"},
    TransactionEventCounterpartBank: {"bank_ispb": "bankISPB", "bank_name": "bankName", "bank_code": "bankCode", "account_branch": "accountBranch", "account_number": "accountNumber"},
    TransactionEventParentTransactionCounterpartBank: {"bank_ispb": "bankISPB", "bank_name": "bankName", "bank_code": "bankCode", "account_branch": "accountBranch", "account_number": "accountNumber"},
    TransactionEventParentTransaction: {"transaction_id": "transactionId", "external_id": "externalId", "end_to_end_id": "endToEndId", "processing_date": "processingDate", "was_total_refunded": "wasTotalRefunded", "remaining_amount_for_refund": "remainingAmountForRefund"},
    TransactionEvent: {"transaction_type": "transactionType", "movement_type": "movementType", "transaction_id": "transactionId", "external_id": "externalId", "end_to_end_id": "endToEndId", "pix_key": "pixKey", "fee_amount": "feeAmount", "original_amount": "originalAmount", "final_amount": "finalAmount", "processing_date": "processingDate", "error_code": "errorCode", "error_message": "errorMessage", "parent_transaction": "parentTransaction"},
    ReceiveEventData: {"tx_id": "txId", "end_to_end_id": "endToEndId", "debtor_account": "debtorAccount"},
    TransferEventData: {"tx_id": "txId", "pix_key": "pixKey", "end_to_end_id": "endToEndId", "credit_debit_type": "creditDebitType", "idempotency_key": "idempotencyKey", "creditor_account": "creditorAccount", "remittance_information": "remittanceInformation", "error_code": "errorCode", "error_message": "errorMessage"},
    RefundEventDataRefundsItem: {"end_to_end_id": "endToEndId", "event_date": "eventDate", "error_code": "errorCode", "error_message": "errorMessage"},
    RefundEventData: {"tx_id": "txId", "end_to_end_id": "endToEndId", "credit_debit_type": "creditDebitType"},
    MedEventMedTransaction: {"transaction_type": "transactionType", "date_time": "dateTime"},
    MedEventMed: {"end_to_end": "endToEnd", "analysis_result": "analysisResult", "analysis_details": "analysisDetails", "requesting_bank": "requestingBank", "contested_bank": "contestedBank", "is_reconciled": "isReconciled", "original_transaction_id": "originalTransactionId", "created_at": "createdAt", "updated_at": "updatedAt"},
})
