# Generated from the service's OpenAPI document by sdk/scripts/generate-python.ts: run `npm run sdk:python`, do not edit.


from __future__ import annotations

from . import _async_resources as _a
from . import _resources as _s
from ._base import BaseAdminClient, BaseAsyncPixClient, BasePixClient

class PixClient(BasePixClient, _s.PixOperations):
    """The account API (sync): `PixClient(base_url, client_id, client_secret, *, certificate_pem=None, cert=None, timeout=30.0)`."""

    location: _s.LocationResource
    token: _s.TokenResource
    balance: _s.BalanceResource
    charges: _s.ChargesResource
    cash_out: _s.CashOutResource
    cash_out_qr_code: _s.CashOutQrCodeResource
    transactions: _s.TransactionsResource
    refunds: _s.RefundsResource
    med: _s.MedResource
    webhooks: _s.WebhooksResource
    events: _s.EventsResource
    webhook_deliveries: _s.WebhookDeliveriesResource
    balances: _s.BalancesResource
    dict_pix: _s.DictPixResource
    cob: _s.CobResource
    devolucao: _s.DevolucaoResource
    sandbox: _s.SandboxResource

    def _attach_resources(self) -> None:
        self.location = _s.LocationResource(self)
        self.token = _s.TokenResource(self)
        self.balance = _s.BalanceResource(self)
        self.charges = _s.ChargesResource(self)
        self.cash_out = _s.CashOutResource(self)
        self.cash_out_qr_code = _s.CashOutQrCodeResource(self)
        self.transactions = _s.TransactionsResource(self)
        self.refunds = _s.RefundsResource(self)
        self.med = _s.MedResource(self)
        self.webhooks = _s.WebhooksResource(self)
        self.events = _s.EventsResource(self)
        self.webhook_deliveries = _s.WebhookDeliveriesResource(self)
        self.balances = _s.BalancesResource(self)
        self.dict_pix = _s.DictPixResource(self)
        self.cob = _s.CobResource(self)
        self.devolucao = _s.DevolucaoResource(self)
        self.sandbox = _s.SandboxResource(self)


class AsyncPixClient(BaseAsyncPixClient, _a.AsyncPixOperations):
    """The account API (asyncio), with the same arguments as PixClient."""

    location: _a.AsyncLocationResource
    token: _a.AsyncTokenResource
    balance: _a.AsyncBalanceResource
    charges: _a.AsyncChargesResource
    cash_out: _a.AsyncCashOutResource
    cash_out_qr_code: _a.AsyncCashOutQrCodeResource
    transactions: _a.AsyncTransactionsResource
    refunds: _a.AsyncRefundsResource
    med: _a.AsyncMedResource
    webhooks: _a.AsyncWebhooksResource
    events: _a.AsyncEventsResource
    webhook_deliveries: _a.AsyncWebhookDeliveriesResource
    balances: _a.AsyncBalancesResource
    dict_pix: _a.AsyncDictPixResource
    cob: _a.AsyncCobResource
    devolucao: _a.AsyncDevolucaoResource
    sandbox: _a.AsyncSandboxResource

    def _attach_resources(self) -> None:
        self.location = _a.AsyncLocationResource(self)
        self.token = _a.AsyncTokenResource(self)
        self.balance = _a.AsyncBalanceResource(self)
        self.charges = _a.AsyncChargesResource(self)
        self.cash_out = _a.AsyncCashOutResource(self)
        self.cash_out_qr_code = _a.AsyncCashOutQrCodeResource(self)
        self.transactions = _a.AsyncTransactionsResource(self)
        self.refunds = _a.AsyncRefundsResource(self)
        self.med = _a.AsyncMedResource(self)
        self.webhooks = _a.AsyncWebhooksResource(self)
        self.events = _a.AsyncEventsResource(self)
        self.webhook_deliveries = _a.AsyncWebhookDeliveriesResource(self)
        self.balances = _a.AsyncBalancesResource(self)
        self.dict_pix = _a.AsyncDictPixResource(self)
        self.cob = _a.AsyncCobResource(self)
        self.devolucao = _a.AsyncDevolucaoResource(self)
        self.sandbox = _a.AsyncSandboxResource(self)


class AdminClient(BaseAdminClient, _s.AdminOperations):
    """The operator API: `AdminClient(base_url, admin_token)`."""

    location: _s.AdminLocationResource
    token: _s.AdminTokenResource
    accounts: _s.AdminAccountsResource
    certificates: _s.AdminCertificatesResource
    credentials: _s.AdminCredentialsResource
    limits: _s.AdminLimitsResource
    fees: _s.AdminFeesResource
    split_frequency: _s.AdminSplitFrequencyResource
    account_webhooks: _s.AdminAccountWebhooksResource
    webhook: _s.AdminWebhookResource
    webhook_secret: _s.AdminWebhookSecretResource
    suspense: _s.AdminSuspenseResource
    statement_check: _s.AdminStatementCheckResource
    operators: _s.AdminOperatorsResource
    members: _s.AdminMembersResource
    webhook_deliveries: _s.AdminWebhookDeliveriesResource
    test_webhook: _s.AdminTestWebhookResource
    signing_key: _s.AdminSigningKeyResource
    account_events: _s.AdminAccountEventsResource
    account_deliveries: _s.AdminAccountDeliveriesResource
    sandbox: _s.AdminSandboxResource

    def _attach_resources(self) -> None:
        self.location = _s.AdminLocationResource(self)
        self.token = _s.AdminTokenResource(self)
        self.accounts = _s.AdminAccountsResource(self)
        self.certificates = _s.AdminCertificatesResource(self)
        self.credentials = _s.AdminCredentialsResource(self)
        self.limits = _s.AdminLimitsResource(self)
        self.fees = _s.AdminFeesResource(self)
        self.split_frequency = _s.AdminSplitFrequencyResource(self)
        self.account_webhooks = _s.AdminAccountWebhooksResource(self)
        self.webhook = _s.AdminWebhookResource(self)
        self.webhook_secret = _s.AdminWebhookSecretResource(self)
        self.suspense = _s.AdminSuspenseResource(self)
        self.statement_check = _s.AdminStatementCheckResource(self)
        self.operators = _s.AdminOperatorsResource(self)
        self.members = _s.AdminMembersResource(self)
        self.webhook_deliveries = _s.AdminWebhookDeliveriesResource(self)
        self.test_webhook = _s.AdminTestWebhookResource(self)
        self.signing_key = _s.AdminSigningKeyResource(self)
        self.account_events = _s.AdminAccountEventsResource(self)
        self.account_deliveries = _s.AdminAccountDeliveriesResource(self)
        self.sandbox = _s.AdminSandboxResource(self)
