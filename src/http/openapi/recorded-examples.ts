/**
 * Examples recorded from one sandbox run (PUBLIC_URL https://pix.example.com) that walks every
 * operation: a charge paid, refunds, a payout and its refund, a /dict/pix transfer, a cob and its
 * devolução, a MED through its analysis, the admin set-up of an account. Real answers of this service,
 * so they match its schemas and formats (test/openapi/document.test.ts checks each one); tokens and
 * the generated private key are shortened. examples.ts lays the hand-written ones over these.
 */
import type { Examples } from './example-types.ts';

export const RECORDED_EXAMPLES: Record<string, Examples> = {
  "health": {
    "responses": {
      "200": {
        "status": "ok"
      }
    }
  },
  "ready": {
    "responses": {
      "200": {
        "status": "ready",
        "checks": {
          "database": "ok",
          "migrations": "ok",
          "scheduler": "ok"
        }
      }
    }
  },
  "oauthMetadata": {
    "responses": {
      "200": {
        "issuer": "https://pix.example.com",
        "token_endpoint": "https://pix.example.com/oauth/token",
        "token_endpoint_auth_methods_supported": [
          "client_secret_basic",
          "client_secret_post"
        ],
        "grant_types_supported": [
          "client_credentials"
        ],
        "response_types_supported": [],
        "scopes_supported": [
          "pix:read",
          "pix:write",
          "balance:read",
          "webhook:read",
          "webhook:write"
        ],
        "jwks_uri": "https://pix.example.com/.well-known/jwks.json",
        "service_documentation": "https://pix.example.com/docs",
        "tls_client_certificate_bound_access_tokens": true,
        "api_token_endpoint": "https://pix.example.com/api/auth/token",
        "api_token_endpoint_auth_methods_supported": [
          "client_secret_post"
        ]
      }
    }
  },
  "createAccount": {
    "request": {
      "name": "Loja Exemplo Ltda",
      "document": "11222333000181",
      "type": "COMPANY"
    },
    "responses": {
      "201": {
        "id": 1,
        "name": "Loja Exemplo Ltda",
        "document": "11222333000181",
        "type": "COMPANY",
        "pixKey": "46065c7b-d59b-4c75-a779-72c97c593223",
        "status": "ACTIVE",
        "createdAt": "2026-11-20T15:00:00.000Z"
      }
    }
  },
  "getAccount": {
    "responses": {
      "200": {
        "id": 1,
        "name": "Loja Exemplo Ltda",
        "document": "11222333000181",
        "type": "COMPANY",
        "pixKey": "46065c7b-d59b-4c75-a779-72c97c593223",
        "status": "ACTIVE",
        "createdAt": "2026-11-20T15:00:00.000Z",
        "balance": {
          "available": 0,
          "blocked": 0
        },
        "limits": {
          "perTransaction": 100000,
          "daily": 1000000,
          "nightly": 50000
        },
        "fees": {
          "cashIn": {
            "fixed": 0,
            "percent": 0
          },
          "cashOut": {
            "fixed": 0,
            "percent": 0
          }
        },
        "splitFrequency": "DAILY"
      }
    }
  },
  "registerCertificate": {
    "request": {},
    "responses": {
      "201": {
        "fingerprint": "4393ba1e67ea61135bb9ea78c51ac350ef70265c8f6de17ba83300be6e52a2cd",
        "subject": "CN=Loja Exemplo Ltda (account 1), O=pix-account-service",
        "notBefore": "2026-11-20T14:59:00.000Z",
        "notAfter": "2027-11-20T15:00:00.000Z",
        "certificatePem": "-----BEGIN CERTIFICATE-----\nMIIBsDCCAVWgAwIBAgIQEZoGM9hh08ZQtHmPxgSRFDAKBggqhkjOPQQDAjBGMSYw\nJAYDVQQDEx1Mb2phIEV4ZW1wbG8gTHRkYSAoYWNjb3VudCAxKTEcMBoGA1UEChMT\ncGl4LWFjY291bnQtc2VydmljZTAeFw0yNjExMjAxNDU5MDBaFw0yNzExMjAxNTAw\nMDBaMEYxJjAkBgNVBAMTHUxvamEgRXhlbXBsbyBMdGRhIChhY2NvdW50IDEpMRww\nGgYDVQQKExNwaXgtYWNjb3VudC1zZXJ2aWNlMFkwEwYHKoZIzj0CAQYIKoZIzj0D\nAQcDQgAEY6iukUQI5pYCMtzM+mr6nKkKB4k2Qb5T5Q2I9Z8ifh4/YlCpif4qKCEI\n9F1i09C/IIE5nG7NZ9JmDLSbbq9i8aMlMCMwDAYDVR0TAQH/BAIwADATBgNVHSUE\nDDAKBggrBgEFBQcDAjAKBggqhkjOPQQDAgNJADBGAiEAo7ng8ppdz7CWsuyrLae2\nOy0RtTZRs3uXg5VZ2vx5DCECIQDJSuq7+TvkmJEHXI2o+N2YDZihBCeqgOdakpPd\niu9Svg==\n-----END CERTIFICATE-----",
        "privateKeyPem": "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg (shortened) \n-----END PRIVATE KEY-----\n"
      }
    }
  },
  "createCredentials": {
    "request": {
      "scopes": [
        "pix:read",
        "pix:write",
        "balance:read"
      ]
    },
    "responses": {
      "201": {
        "clientId": "d8b2fc9d-73cc-4cd3-889f-569add9fee84",
        "clientSecret": "P88RyDjYhxjG178NXjYW4FHq1dtLsJVy_Etu",
        "scopes": [
          "pix:read",
          "pix:write",
          "balance:read"
        ]
      }
    }
  },
  "updateLimits": {
    "request": {
      "perTransaction": 5000,
      "daily": 20000,
      "nightly": 1000
    },
    "responses": {
      "200": {
        "perTransaction": 5000,
        "daily": 20000,
        "nightly": 1000
      }
    }
  },
  "updateFees": {
    "request": {
      "cashIn": {
        "fixed": 0,
        "percent": 0.99
      },
      "cashOut": {
        "fixed": 0.5,
        "percent": 0
      }
    },
    "responses": {
      "200": {
        "cashIn": {
          "fixed": 0,
          "percent": 0.99
        },
        "cashOut": {
          "fixed": 0.5,
          "percent": 0
        }
      }
    }
  },
  "updateSplitFrequency": {
    "request": {
      "frequency": "DAILY"
    },
    "responses": {
      "200": {
        "frequency": "DAILY"
      }
    }
  },
  "registerAccountWebhook": {
    "request": {
      "eventType": "cash_in",
      "url": "https://example.com/pix/webhooks",
      "headers": [
        {
          "key": "x-api-key",
          "value": "my-receiver-key"
        }
      ]
    },
    "responses": {
      "201": {
        "id": 1,
        "type": "cash_in",
        "url": "https://example.com/pix/webhooks",
        "headers": {
          "x-api-key": "my-receiver-key"
        },
        "isActive": true,
        "version": 1,
        "createdAt": "2026-11-20T15:00:00.000Z",
        "updatedAt": "2026-11-20T15:00:00.000Z"
      }
    }
  },
  "listAccountWebhooks": {
    "responses": {
      "200": {
        "data": [
          {
            "id": 1,
            "type": "cash_in",
            "url": "https://example.com/pix/webhooks",
            "headers": {
              "x-api-key": "my-receiver-key"
            },
            "isActive": true,
            "version": 1,
            "createdAt": "2026-11-20T15:00:00.000Z",
            "updatedAt": "2026-11-20T15:00:00.000Z"
          }
        ],
        "metadata": {
          "total": 1,
          "page": 1,
          "pageSize": 20,
          "totalPages": 1
        }
      }
    }
  },
  "getWebhookSecret": {
    "responses": {
      "200": {
        "secret": "whsec_Bbjow9z3kxNiGlJzNn+nlJ6avbVaAxubPHTLiwhEE+U="
      }
    }
  },
  "createOperator": {
    "request": {
      "email": "ops@example.com",
      "password": "correct horse battery staple"
    },
    "responses": {
      "201": {
        "id": 1,
        "email": "ops@example.com"
      }
    }
  },
  "inviteMember": {
    "request": {
      "email": "financeiro@lojaexemplo.com.br"
    },
    "responses": {
      "201": {
        "id": 2,
        "email": "financeiro@lojaexemplo.com.br",
        "invitationUrl": "https://pix.example.com/portal/invitations/G2Rd5oXIcO2uuq26zeLb_rzezfIZdz9s1N_gNL_U_zM"
      }
    }
  },
  "createToken": {
    "responses": {
      "201": {
        "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjMwMDAifQ.c2ln",
        "token_type": "Bearer",
        "expires_in": 1800
      }
    }
  },
  "oauthToken": {
    "request": {
      "clientId": "3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24",
      "clientSecret": "cs_5Jk9Qw2Zr7Tx"
    },
    "responses": {
      "200": {
        "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjMwMDAifQ.c2ln",
        "token_type": "Bearer",
        "expires_in": 1800,
        "scope": "pix:read"
      }
    }
  },
  "createDeposit": {
    "request": {
      "accountId": 1,
      "amount": 1000,
      "payer": {
        "name": "João Souza",
        "document": "52998224725",
        "ispb": "00000000"
      }
    },
    "responses": {
      "201": {
        "id": 1,
        "transactionId": "640d82ba-415a-4b1c-9d47-f2916abc88f4",
        "externalId": null,
        "type": "PAYMENT",
        "status": "CONFIRMED",
        "movementType": "CREDIT",
        "originalAmount": 1000,
        "feeAmount": 0,
        "finalAmount": 1000,
        "endToEndId": "E00000000202611201500ZKZBUVL7nq6",
        "counterpart": {
          "name": "João Souza",
          "document": "***.982.247-**",
          "bank": {
            "bankISPB": "00000000",
            "bankName": "Banco do Brasil S.A.",
            "bankCode": "001",
            "accountBranch": null,
            "accountNumber": null
          }
        },
        "createdAt": "2026-11-20T15:00:00.000Z",
        "processedAt": "2026-11-20T15:00:00.000Z"
      }
    }
  },
  "getBalance": {
    "responses": {
      "200": {
        "grossBalance": 1000,
        "blockedBalance": 0,
        "netBalance": 1000,
        "consultedAt": "2026-11-20T15:00:05.000Z"
      }
    }
  },
  "getBalances": {
    "responses": {
      "200": {
        "data": [
          {
            "eventDate": "2026-11-20T15:00:05.000Z",
            "balanceAmount": {
              "available": 1000,
              "blocked": 0,
              "overdraft": 0
            }
          }
        ]
      }
    }
  },
  "payCharge": {
    "request": {
      "payer": {
        "name": "Maria da Silva",
        "document": "11144477735",
        "ispb": "60746948"
      }
    },
    "responses": {
      "200": {
        "id": 2,
        "transactionId": "2da5409c-5022-4dca-a8a8-ff15728caf22",
        "externalId": "order-1042",
        "type": "PAYMENT",
        "status": "CONFIRMED",
        "movementType": "CREDIT",
        "originalAmount": 150,
        "feeAmount": 0,
        "finalAmount": 150,
        "endToEndId": "E60746948202611201500OTlFSd4o368",
        "counterpart": {
          "name": "Maria da Silva",
          "document": "***.444.777-**",
          "bank": {
            "bankISPB": "60746948",
            "bankName": "Banco Bradesco S.A.",
            "bankCode": "237",
            "accountBranch": null,
            "accountNumber": null
          }
        },
        "createdAt": "2026-11-20T15:00:05.000Z",
        "processedAt": "2026-11-20T15:00:05.000Z"
      }
    }
  },
  "getTransaction": {
    "responses": {
      "200": {
        "id": "2",
        "externalId": "order-1042",
        "type": "PAYMENT",
        "status": "CONFIRMED",
        "originalAmount": 150,
        "feeAmount": 0,
        "finalAmount": 150,
        "e2eId": "E60746948202611201500OTlFSd4o368",
        "counterpartName": "Maria da Silva",
        "counterpartDocument": "***.444.777-**",
        "counterpartAccountBankCode": "237",
        "counterpartAccountBranch": null,
        "counterpartAccountNumber": null,
        "counterpartAccountIspb": "60746948",
        "counterpartAccountBankName": "Banco Bradesco S.A.",
        "createdAt": "2026-11-20T15:00:05.000Z",
        "updatedAt": "2026-11-20T15:00:05.000Z",
        "processedAt": "2026-11-20T15:00:05.000Z"
      }
    }
  },
  "createRefundIn": {
    "request": {
      "refundValue": 50,
      "reason": "Produto devolvido",
      "externalId": "dev10421"
    },
    "responses": {
      "201": {
        "transactionId": "a78ca9ac-4353-4013-8721-2a57f3b61df9",
        "externalId": "dev10421",
        "status": "PENDING",
        "refundValue": 50,
        "providerTransactionId": "D999999992026112015000vebXIsjBfE",
        "generateTime": "2026-11-20T15:00:10.000Z"
      }
    }
  },
  "refundPayout": {
    "request": {
      "amount": 89.9
    },
    "responses": {
      "201": {
        "id": 5,
        "transactionId": "fd3c6669-c1dd-46d2-85e8-3e57153b4268",
        "externalId": null,
        "type": "REFUND_OUT",
        "status": "CONFIRMED",
        "movementType": "CREDIT",
        "originalAmount": 89.9,
        "feeAmount": 0,
        "finalAmount": 89.9,
        "endToEndId": "D58160789202611201500POL1tw2kXh7",
        "counterpart": {
          "name": "Maria da Silva",
          "document": "***.444.777-**",
          "bank": {
            "bankISPB": "58160789",
            "bankName": "Banco Safra S.A.",
            "bankCode": "422",
            "accountBranch": "5953",
            "accountNumber": "303952-2"
          }
        },
        "createdAt": "2026-11-20T15:00:20.000Z",
        "processedAt": "2026-11-20T15:00:20.000Z"
      }
    }
  },
  "listTransactions": {
    "responses": {
      "200": {
        "data": [
          {
            "transactionId": "fd3c6669-c1dd-46d2-85e8-3e57153b4268",
            "externalId": null,
            "status": "Confirmado",
            "operationType": "Refund out",
            "movementType": "CREDIT",
            "originalAmount": 89.9,
            "feeAmount": 0,
            "finalAmount": 89.9,
            "endToEndId": "D58160789202611201500POL1tw2kXh7",
            "createdAt": "2026-11-20T15:00:20.000Z",
            "processedAt": "2026-11-20T15:00:20.000Z",
            "counterpart": {
              "name": "Maria da Silva",
              "document": "***.444.777-**",
              "bank": {
                "bankISPB": "58160789",
                "bankName": "Banco Safra S.A.",
                "bankCode": "422",
                "accountBranch": "5953",
                "accountNumber": "303952-2"
              }
            }
          },
          {
            "transactionId": "fd023564-25af-460d-9b7a-7dfee7fbedc1",
            "externalId": "payout-2201",
            "status": "Confirmado",
            "operationType": "Pix out",
            "movementType": "DEBIT",
            "originalAmount": 89.9,
            "feeAmount": 0,
            "finalAmount": 89.9,
            "endToEndId": "E99999999202611201500TGFSOxOw8wX",
            "createdAt": "2026-11-20T15:00:15.000Z",
            "processedAt": "2026-11-20T15:00:20.000Z",
            "counterpart": {
              "name": "Maria da Silva",
              "document": "***.444.777-**",
              "bank": {
                "bankISPB": "58160789",
                "bankName": "Banco Safra S.A.",
                "bankCode": "422",
                "accountBranch": "5953",
                "accountNumber": "303952-2"
              }
            }
          }
        ],
        "metadata": {
          "page": 1,
          "size": 2,
          "total": 5,
          "totalPages": 3,
          "hasNext": true,
          "hasPrevious": false
        }
      }
    }
  },
  "createDictTransfer": {
    "responses": {
      "201": {
        "endToEndId": "51299f4e-86f4-4277-a639-1df5276bd541",
        "eventDate": "2026-11-20T15:00:25.000Z",
        "id": 6,
        "payment": {
          "amount": 250,
          "currency": "BRL"
        },
        "type": "PENDING"
      }
    }
  },
  "getDictTransfer": {
    "responses": {
      "200": {
        "endToEndId": "E99999999202611201500YfOiS46vVi9",
        "eventDate": "2026-11-20T15:00:30.000Z",
        "id": 6,
        "payment": {
          "amount": 250,
          "currency": "BRL"
        },
        "type": "COMPLETED"
      }
    }
  },
  "putCob": {
    "responses": {
      "201": {
        "calendario": {
          "criacao": "2026-11-20T15:00:30.000Z",
          "expiracao": 3600
        },
        "txid": "fatura2026110000000000000001",
        "revisao": 0,
        "loc": {
          "id": 2,
          "txid": "fatura2026110000000000000001",
          "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
          "tipoCob": "cob",
          "criacao": "2026-11-20T15:00:30.000Z"
        },
        "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
        "status": "ATIVA",
        "valor": {
          "original": "123.45",
          "modalidadeAlteracao": 0
        },
        "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
        "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
        "devedor": {
          "nome": "Empresa Exemplo Ltda",
          "cnpj": "11222333000181"
        },
        "solicitacaoPagador": "Fatura 2026-11"
      }
    }
  },
  "getCob": {
    "responses": {
      "200": {
        "calendario": {
          "criacao": "2026-11-20T15:00:30.000Z",
          "expiracao": 3600
        },
        "txid": "fatura2026110000000000000001",
        "revisao": 0,
        "loc": {
          "id": 2,
          "txid": "fatura2026110000000000000001",
          "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
          "tipoCob": "cob",
          "criacao": "2026-11-20T15:00:30.000Z"
        },
        "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
        "status": "ATIVA",
        "valor": {
          "original": "123.45",
          "modalidadeAlteracao": 0
        },
        "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
        "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
        "devedor": {
          "nome": "Empresa Exemplo Ltda",
          "cnpj": "11222333000181"
        },
        "solicitacaoPagador": "Fatura 2026-11"
      }
    }
  },
  "patchCob": {
    "request": {
      "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    },
    "responses": {
      "200": {
        "calendario": {
          "criacao": "2026-11-20T15:00:30.000Z",
          "expiracao": 3600
        },
        "txid": "fatura2026110000000000000002",
        "revisao": 1,
        "loc": {
          "id": 3,
          "txid": "fatura2026110000000000000002",
          "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
          "tipoCob": "cob",
          "criacao": "2026-11-20T15:00:30.000Z"
        },
        "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
        "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR",
        "valor": {
          "original": "123.45",
          "modalidadeAlteracao": 0
        },
        "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
        "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
        "devedor": {
          "nome": "Empresa Exemplo Ltda",
          "cnpj": "11222333000181"
        },
        "solicitacaoPagador": "Fatura 2026-11"
      }
    }
  },
  "putDevolucao": {
    "request": {
      "valor": "10.00",
      "natureza": "ORIGINAL",
      "descricao": "Devolução parcial do pedido 1042"
    },
    "responses": {
      "201": {
        "id": "dev20261120a",
        "rtrId": "D99999999202611201500uRwWY6L79z8",
        "valor": "10.00",
        "natureza": "ORIGINAL",
        "horario": {
          "solicitacao": "2026-11-20T15:00:30.000Z"
        },
        "status": "EM_PROCESSAMENTO",
        "descricao": "Devolução parcial do pedido 1042"
      }
    }
  },
  "getDevolucao": {
    "responses": {
      "200": {
        "id": "dev20261120a",
        "rtrId": "D99999999202611201500uRwWY6L79z8",
        "valor": "10.00",
        "natureza": "ORIGINAL",
        "horario": {
          "solicitacao": "2026-11-20T15:00:30.000Z",
          "liquidacao": "2026-11-20T15:00:35.000Z"
        },
        "status": "DEVOLVIDO",
        "descricao": "Devolução parcial do pedido 1042"
      }
    }
  },
  "registerDictKey": {
    "request": {
      "key": "maria.silva@example.com",
      "keyType": "EMAIL",
      "name": "Maria da Silva",
      "document": "11144477735",
      "ispb": "60746948",
      "branch": "0001",
      "account": "123456"
    },
    "responses": {
      "201": {
        "key": "maria.silva@example.com",
        "keyType": "EMAIL",
        "name": "Maria da Silva",
        "document": "11144477735",
        "ispb": "60746948",
        "bankName": "Banco Bradesco S.A.",
        "branch": "0001",
        "account": "123456"
      }
    }
  },
  "openMed": {
    "request": {
      "endToEndId": "E60746948202611201500OTlFSd4o368",
      "cause": "SCAM",
      "amount": 50
    },
    "responses": {
      "201": {
        "id": 1,
        "endToEnd": "E60746948202611201500OTlFSd4o368",
        "status": "OPEN",
        "reason": "REFUND_REQUEST",
        "cause": "SCAM",
        "description": null,
        "analysisResult": null,
        "analysisDetails": null,
        "requestingBank": {
          "ispb": "60746948",
          "name": "Banco Bradesco S.A."
        },
        "contestedBank": {
          "ispb": "99999999",
          "name": "PIX Account Sandbox"
        },
        "transaction": {
          "amount": 150,
          "type": "PIX",
          "transactionType": "CASH_IN",
          "name": "Maria da Silva",
          "document": "***.444.777-**",
          "dateTime": "2026-11-20T15:00:05.000Z"
        },
        "isReconciled": true,
        "originalTransactionId": 2,
        "createdAt": "2026-11-20T15:00:35.000Z",
        "updatedAt": "2026-11-20T15:00:35.000Z"
      }
    }
  },
  "transitionMed": {
    "request": {
      "to": "ANALYZED",
      "analysisResult": "REJECTED",
      "analysisDetails": "Pagamento legítimo: produto entregue"
    },
    "responses": {
      "200": {
        "id": 1,
        "endToEnd": "E60746948202611201500OTlFSd4o368",
        "status": "ANALYZED",
        "reason": "REFUND_REQUEST",
        "cause": "SCAM",
        "description": null,
        "analysisResult": "REJECTED",
        "analysisDetails": "Pagamento legítimo: produto entregue",
        "requestingBank": {
          "ispb": "60746948",
          "name": "Banco Bradesco S.A."
        },
        "contestedBank": {
          "ispb": "99999999",
          "name": "PIX Account Sandbox"
        },
        "transaction": {
          "amount": 150,
          "type": "PIX",
          "transactionType": "CASH_IN",
          "name": "Maria da Silva",
          "document": "***.444.777-**",
          "dateTime": "2026-11-20T15:00:05.000Z"
        },
        "isReconciled": true,
        "originalTransactionId": 2,
        "createdAt": "2026-11-20T15:00:35.000Z",
        "updatedAt": "2026-11-20T15:00:35.000Z"
      }
    }
  },
  "listMed": {
    "responses": {
      "200": {
        "data": [
          {
            "id": 1,
            "endToEnd": "E60746948202611201500OTlFSd4o368",
            "status": "ANALYZED",
            "reason": "REFUND_REQUEST",
            "cause": "SCAM",
            "description": null,
            "analysisResult": "REJECTED",
            "analysisDetails": "Pagamento legítimo: produto entregue",
            "requestingBank": {
              "ispb": "60746948",
              "name": "Banco Bradesco S.A."
            },
            "contestedBank": {
              "ispb": "99999999",
              "name": "PIX Account Sandbox"
            },
            "transaction": {
              "amount": 150,
              "type": "PIX",
              "transactionType": "CASH_IN",
              "name": "Maria da Silva",
              "document": "***.444.777-**",
              "dateTime": "2026-11-20T15:00:05.000Z"
            },
            "isReconciled": true,
            "originalTransactionId": 2,
            "createdAt": "2026-11-20T15:00:35.000Z",
            "updatedAt": "2026-11-20T15:00:35.000Z"
          }
        ],
        "metadata": {
          "total": 1,
          "page": 1,
          "pageSize": 1,
          "totalPages": 1
        }
      }
    }
  },
  "resendWebhook": {
    "request": {},
    "responses": {
      "200": {
        "message": "Webhook resent to 1 URL; first attempt: the receiver answered 200",
        "webhookLogId": 5,
        "sentAt": "2026-11-20T15:00:35.000Z",
        "statusCode": 200
      }
    }
  },
  "advanceClock": {
    "request": {
      "seconds": 3600
    },
    "responses": {
      "200": {
        "now": "2026-11-20T16:00:35.000Z",
        "jobsRun": 2
      }
    }
  },
  "ledgerCheck": {
    "responses": {
      "200": {
        "ok": true,
        "checkedAt": "2026-11-20T16:00:35.000Z",
        "postings": {
          "count": 26,
          "total": 0
        },
        "unbalancedJournals": {
          "count": 0,
          "items": []
        },
        "drift": {
          "count": 0,
          "items": []
        },
        "negativeBalances": {
          "count": 0,
          "items": []
        },
        "systemAccounts": [
          {
            "code": "fee_revenue",
            "balance": 0
          },
          {
            "code": "med_clearing",
            "balance": 0
          },
          {
            "code": "network:sandbox",
            "balance": 160
          },
          {
            "code": "network:unconfigured",
            "balance": 0
          },
          {
            "code": "onus_clearing",
            "balance": 0
          },
          {
            "code": "suspense",
            "balance": 0
          },
          {
            "code": "world",
            "balance": -1000
          }
        ]
      }
    }
  },
  "jwks": {
    "responses": {
      "200": {
        "keys": [
          {
            "kty": "EC",
            "crv": "P-256",
            "x": "nMGzOQ7bTkrwpVn-DsyM1fsLGO_VcCUOfqaDaeWvUHY",
            "y": "G5K8bdqpd9NgZz7FYRaRyo4WVJRKSqiLPoW7XiPGQW8",
            "kid": "v8t_WduYkM_JQnx6H2LuB2wGWUZlxJv0CG-pgyNrVn4",
            "alg": "ES256",
            "use": "sig"
          }
        ]
      }
    }
  },
  "listWebhooks": {
    "responses": {
      "200": {
        "accountId": 1,
        "webhooks": [],
        "total": 0
      }
    }
  },
  "registerWebhook": {
    "responses": {
      "200": {
        "success": false,
        "message": "Webhook registration through the API is temporarily disabled; webhooks are managed in the account dashboard. Nothing was stored."
      }
    }
  }
};
