/// The OpenAPI document of the REST API, served at `GET /openapi.yaml`. It is embedded (not a
/// bundle resource) so an installed binary needs no files beside it. `openapi/push-relay.yaml`
/// in the repository is the same text; `OpenAPIDocumentTests` fails if the two differ or if the
/// document and the router disagree on any route.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.0.3
info:
  title: PushRelay REST API
  version: 1.0.0
  description: |
    A Sendbird-Platform-API-compatible subset for push notifications: APNs device tokens,
    push preferences, the user's template choice, the app's push templates, session tokens
    and secondary API tokens.
    Paths and bodies are Sendbird's, so Sendbird clients and the official Sendbird Platform SDK
    work unchanged; point them at the relay's URL instead of `https://api-{app_id}.sendbird.com`.

    Credentials, and where each belongs:

    - **Servers** (the app's backend) send `Api-Token`: the app's master API token (from the
      relay's configuration) or a secondary token (`POST /v3/applications/api_tokens`). Either
      reaches every `/v3` operation of its app, except that only the master token manages API
      tokens. It selects the app; all data is scoped to that app. Never ship one in a client.
    - **Devices** send `Session-Token`: a token the app's server got for that user from
      `POST /v3/users/{user_id}/token` and handed to the device. It reaches only the
      operations marked with the `sessionToken` scheme (the user's own device tokens, push
      preferences and template choice), and only for its own `{user_id}`; anything else is 403.

    When both headers are present, `Api-Token` decides.

    Errors are Sendbird's body `{"message", "code", "error": true}`:

    | HTTP | code | when |
    |---|---|---|
    | 400 | 400100 | a field that must be a string is not |
    | 400 | 400101 | a field that must be an integer is not |
    | 400 | 400102 | a field that must be a list is not |
    | 400 | 400103 | a field that must be a JSON object is not |
    | 400 | 400104 | a field that must be a boolean is not |
    | 400 | 400105 | a required field is missing |
    | 400 | 400106 | a timestamp is negative |
    | 400 | 400110 | a value is too long (or a list too long), or a per-app limit is reached (`apps[].limits`: channel preferences per user) |
    | 400 | 400111 | a value is not allowed: out of range, unknown enum value, unknown time zone, token type other than `apns` |
    | 400 | 400151 | a path segment contains control characters, or a string in the body contains NUL |
    | 400 | 400201 | the user, or template, does not exist |
    | 400 | 400403 | the body is not JSON, or not a JSON object |
    | 400 | 400601 | the token to register is not a valid APNs token |
    | 400 | 400602 | the token to remove is not a valid APNs token |
    | 401 | 400302 | `Session-Token` malformed, unknown or revoked |
    | 401 | 400309 | `Session-Token` expired (Sendbird's SDKs then ask the app for a new one) |
    | 401 | 400401 | `Api-Token` missing or wrong (and no `Session-Token`) |
    | 403 | 400108 | the credential may not do this: a session token outside its own user's push settings, a secondary API token managing API tokens |
    | 404 | 400201 | no such path |
    | 405 | 400111 | the path exists but not with this method (`Allow` lists its methods) |
    | 413 | 400110 | request body larger than the configured limit (64 KiB by default) |
    | 500 | 500901 | the relay's own failure (never a client mistake) |

    Users: the relay learns a user on the first write for them (registering a token, setting
    preferences, a channel preference or a template choice). Reads and deletes for a user the
    relay has never seen answer 400201 `"User" not found.`, as Sendbird does for unknown users.
servers:
  - url: http://127.0.0.1:8080
security:
  - apiToken: []
paths:
  /openapi.yaml:
    get:
      operationId: getOpenAPIDocument
      summary: This document.
      security: []
      responses:
        '200':
          description: The OpenAPI document.
          content:
            application/yaml:
              schema:
                type: string
  /health:
    get:
      operationId: getHealth
      summary: Liveness probe.
      description: 200 while the process serves HTTP. Needs no token.
      security: []
      responses:
        '200':
          description: The relay is alive.
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status:
                    type: string
                    enum: [ok]
  /ready:
    get:
      operationId: getReadiness
      summary: Readiness probe.
      description: |
        Ready when the database takes a write lock, checked in the background at most once a
        second (a request never opens a connection or takes the lock itself). Each app's APNs pool
        is reported (connections open lazily, on the first push, so an idle pool does not make
        the relay unready).
      security: []
      responses:
        '200':
          description: Ready.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Readiness'
        '503':
          description: Not ready (the database is not writable).
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Readiness'
  /metrics:
    get:
      operationId: getMetrics
      summary: Prometheus metrics (text exposition format 0.0.4).
      description: |
        When `metrics.token` is configured, needs `Authorization: Bearer <token>`; otherwise open.
      security: []
      responses:
        '200':
          description: The metrics.
          content:
            text/plain:
              schema:
                type: string
        '401':
          description: A metrics token is configured and the request did not present it.
  /v3/users/{user_id}/push/{token_type}:
    parameters:
      - $ref: '#/components/parameters/UserID'
      - $ref: '#/components/parameters/TokenType'
    post:
      operationId: addDeviceToken
      security:
        - apiToken: []
        - sessionToken: []
      summary: Register a device token for a user.
      description: |
        Creates the user if needed. A token held by another user of the app moves to this user.
        `is_unique: true` removes the user's other tokens. A user keeps at most 20 tokens; the
        oldest is removed first. The registration time is stored: a later APNs 410 removes the
        token only if it was registered before the 410's timestamp.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/AddTokenRequest'
      responses:
        '200':
          description: The registered token.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenAdded'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
    get:
      operationId: listDeviceTokens
      security:
        - apiToken: []
        - sessionToken: []
      summary: List a user's device tokens, oldest registration first.
      responses:
        '200':
          description: The tokens.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenList'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/push/{token_type}/{token}:
    parameters:
      - $ref: '#/components/parameters/UserID'
      - $ref: '#/components/parameters/TokenType'
      - $ref: '#/components/parameters/Token'
    delete:
      operationId: removeDeviceToken
      security:
        - apiToken: []
        - sessionToken: []
      summary: Remove one of a user's tokens.
      description: Succeeds also when the user does not hold the token (idempotent).
      responses:
        '200':
          description: The removed token.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenRemoved'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/push:
    parameters:
      - $ref: '#/components/parameters/UserID'
    delete:
      operationId: removeAllDeviceTokens
      security:
        - apiToken: []
        - sessionToken: []
      summary: Remove all of a user's tokens.
      responses:
        '200':
          description: The removed tokens.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokensRemoved'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/push/device_tokens/{token_type}/{token}:
    parameters:
      - $ref: '#/components/parameters/TokenType'
      - $ref: '#/components/parameters/Token'
    get:
      operationId: getDeviceTokenOwner
      summary: The user holding a token.
      description: |
        A list, as Sendbird's SDK models it: one element, or empty when nobody holds the token.
      responses:
        '200':
          description: The owner.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenOwners'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
    delete:
      operationId: removeDeviceTokenFromOwner
      summary: Remove a token from whoever holds it.
      responses:
        '200':
          description: The user it was removed from (empty when nobody held it).
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TokenOwners'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/push_preference:
    parameters:
      - $ref: '#/components/parameters/UserID'
    get:
      operationId: getPushPreferences
      security:
        - apiToken: []
        - sessionToken: []
      summary: A user's push preferences.
      responses:
        '200':
          description: Every field.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PushPreferences'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
    put:
      operationId: updatePushPreferences
      security:
        - apiToken: []
        - sessionToken: []
      summary: Change the given fields of a user's push preferences.
      description: |
        Only the fields in the body change; the user is created if needed. Non-empty
        `dnd_schedules` turn the daily window (`do_not_disturb`) off; `do_not_disturb: true`
        without `dnd_schedules` clears the weekly schedules; both at once is 400111. A weekly
        window whose end is before its start crosses midnight and is stored and returned as
        given (Sendbird returns such windows split in two days). With `snooze_enabled`,
        `snooze_end_ts` must not be before `snooze_start_ts`.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/PushPreferencesUpdate'
      responses:
        '200':
          description: The preferences after the change.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PushPreferences'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
    delete:
      operationId: resetPushPreferences
      security:
        - apiToken: []
        - sessionToken: []
      summary: Reset a user's push preferences to the defaults.
      description: |
        Defaults: trigger option `all`, time zone `UTC`, sound `default`, every switch off, every
        time field 0, no weekly schedules. Channel preferences and tokens are kept. Answers with
        the reset preferences (Sendbird's current doc says the body is empty; its SDK needs an
        object).
      responses:
        '200':
          description: The reset preferences.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/PushPreferences'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/push_preference/{channel_url}:
    parameters:
      - $ref: '#/components/parameters/UserID'
      - name: channel_url
        in: path
        required: true
        description: The group channel's URL, percent-encoded.
        schema:
          type: string
    get:
      operationId: getChannelPushPreference
      security:
        - apiToken: []
        - sessionToken: []
      summary: A user's push preference for one channel.
      responses:
        '200':
          description: The preference (`default` when never set).
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ChannelPushPreference'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
    put:
      operationId: updateChannelPushPreference
      security:
        - apiToken: []
        - sessionToken: []
      summary: Set a user's push preference for one channel.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/ChannelPushPreferenceUpdate'
      responses:
        '200':
          description: The preference after the change.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ChannelPushPreference'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
  /v3/users/{user_id}/push/template:
    parameters:
      - $ref: '#/components/parameters/UserID'
    get:
      operationId: getPushTemplateChoice
      security:
        - apiToken: []
        - sessionToken: []
      summary: The template a user receives.
      responses:
        '200':
          description: The template name.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TemplateChoice'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
    put:
      operationId: choosePushTemplate
      security:
        - apiToken: []
        - sessionToken: []
      summary: Choose the template a user receives.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/TemplateChoice'
      responses:
        '200':
          description: The chosen template name.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/TemplateChoice'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
  /v3/applications/push/message_templates:
    get:
      operationId: listMessageTemplates
      summary: The app's `default` and `alternative` templates.
      description: The templates in effect. Each is the one last changed through this API, else the
        relay's configured texts (`apps[].templates`), else Sendbird's.
      responses:
        '200':
          description: Both templates.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/MessageTemplates'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/applications/push/message_templates/{template_name}:
    parameters:
      - name: template_name
        in: path
        required: true
        description: Any other name is 400201.
        schema:
          type: string
          enum: [default, alternative]
    get:
      operationId: getMessageTemplate
      summary: One of the app's templates.
      responses:
        '200':
          description: A one-element list.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/MessageTemplates'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
    put:
      operationId: updateMessageTemplate
      summary: Change texts of one of the app's templates.
      description: Keys left out keep their text. Texts are 1 to 1024 bytes. The template is then
        stored whole and wins over the relay's configured texts from then on.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/MessageTemplateUpdate'
      responses:
        '200':
          description: The template after the change, as a one-element list.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/MessageTemplates'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
  /webhooks/sendbird:
    post:
      operationId: receiveSendbirdWebhook
      summary: A Sendbird webhook event; group_channel:message_send events are queued for push.
      description: |
        Authenticated by `x-sendbird-signature` (lowercase hex HMAC-SHA256 of the raw body keyed
        by the app's master API token), not by `Api-Token`. The signature is checked before the
        body is parsed, under each configured app's key (`/webhooks/sendbird/{app_id}` names the
        app and saves the others); a missing or malformed header is 401 without reading further,
        and the signing app must be the one the body's `app_id` names. 200 is sent only after the
        event and its deliveries are committed; the same `app_id` + `payload.message_id` again is
        200 `duplicate` and pushes nothing. Other categories are 200 `ignored`. An event listing
        more members than `apps[].limits.max_members_per_event` is 400 (400110).
      security: []
      parameters:
        - $ref: '#/components/parameters/SendbirdSignature'
      requestBody:
        $ref: '#/components/requestBodies/SendbirdWebhook'
      responses:
        '200':
          $ref: '#/components/responses/WebhookAnswer'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '404':
          $ref: '#/components/responses/WebhookUnknownApp'
        '413':
          $ref: '#/components/responses/TooLarge'
        '503':
          $ref: '#/components/responses/WebhookNotAccepted'
  /webhooks/sendbird/{app_id}:
    post:
      operationId: receiveSendbirdWebhookForApp
      summary: The same webhook, at a URL that names the app (only its key is tried).
      description: |
        Authenticated by `x-sendbird-signature` (lowercase hex HMAC-SHA256 of the raw body keyed
        by the app's master API token), not by `Api-Token`. The signature is checked before the
        body is parsed, under each configured app's key (`/webhooks/sendbird/{app_id}` names the
        app and saves the others); a missing or malformed header is 401 without reading further,
        and the signing app must be the one the body's `app_id` names. 200 is sent only after the
        event and its deliveries are committed; the same `app_id` + `payload.message_id` again is
        200 `duplicate` and pushes nothing. Other categories are 200 `ignored`. An event listing
        more members than `apps[].limits.max_members_per_event` is 400 (400110).
      security: []
      parameters:
        - name: app_id
          in: path
          required: true
          schema:
            type: string
        - $ref: '#/components/parameters/SendbirdSignature'
      requestBody:
        $ref: '#/components/requestBodies/SendbirdWebhook'
      responses:
        '200':
          $ref: '#/components/responses/WebhookAnswer'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '404':
          $ref: '#/components/responses/WebhookUnknownApp'
        '413':
          $ref: '#/components/responses/TooLarge'
        '503':
          $ref: '#/components/responses/WebhookNotAccepted'
  /v3/push/deliveries:
    get:
      operationId: getMessageDeliveryLog
      summary: What happened to one message for one user.
      description: The recipient decision (`push` or a skip reason) and every delivery with its attempts, APNs status, reason and apns-id. Device tokens are redacted.
      parameters:
        - name: message_id
          in: query
          required: true
          schema:
            type: integer
            format: int64
        - name: user_id
          in: query
          required: true
          schema:
            type: string
      responses:
        '200':
          description: The log (decision null when the relay has no record of the message).
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/MessageDeliveryLog'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/push/deliveries:
    parameters:
      - $ref: '#/components/parameters/UserID'
    get:
      operationId: listUserDeliveries
      summary: A user's most recent deliveries, newest first.
      description: The user's deliveries among the relay's 200,000 most recent ones (of all users), newest first, with their attempts. Device tokens are redacted.
      parameters:
        - name: limit
          in: query
          required: false
          schema:
            type: integer
            minimum: 1
            maximum: 200
            default: 20
      responses:
        '200':
          description: The deliveries.
          content:
            application/json:
              schema:
                type: object
                properties:
                  deliveries:
                    type: array
                    items:
                      $ref: '#/components/schemas/Delivery'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/users/{user_id}/token:
    parameters:
      - $ref: '#/components/parameters/UserID'
    post:
      operationId: issueSessionToken
      summary: Issue a session token for a user (server credentials only).
      description: |
        The app's server calls this for a user who signed in, and hands the token to that user's
        device, which then sends it as `Session-Token`. The token is 64 hex characters
        (256 random bits); the relay stores only its SHA-256 digest, so the answer is the only
        place it appears. Without `expires_at` it expires after 7 days. The user need not be
        known to the relay yet. A user keeps at most 100 live tokens (the oldest go first);
        issuing one also drops the user's expired ones.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/SessionTokenRequest'
      responses:
        '200':
          description: The new token.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/SessionToken'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
    delete:
      operationId: revokeSessionTokens
      summary: Revoke every session token of a user (server credentials only).
      description: Takes effect on the next request; succeeds also when the user has none.
      responses:
        '200':
          description: Done.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Empty'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/applications/api_tokens:
    post:
      operationId: createSecondaryAPIToken
      summary: Create a secondary API token (master API token only).
      description: |
        A secondary token authenticates every other `/v3` operation like the master token, so
        each server can have its own and lose it alone. It is 64 hex characters; the relay
        stores only its SHA-256 digest, so this answer is the only place the full token appears
        (Sendbird lists tokens in full; the relay cannot, and would not). At most 20 per app.
      requestBody:
        required: false
        content:
          application/json:
            schema:
              type: object
      responses:
        '200':
          description: The new token, in full.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/APIToken'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '413':
          $ref: '#/components/responses/TooLarge'
    get:
      operationId: listSecondaryAPITokens
      summary: List the secondary API tokens (master API token only), oldest first, redacted.
      responses:
        '200':
          description: The tokens, each as its first 4 characters and "…".
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/APITokenList'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
  /v3/applications/api_tokens/{api_token}:
    parameters:
      - name: api_token
        in: path
        required: true
        description: |
          The full token, or its listed form (4 characters and "…", percent-encoded) when that
          names exactly one token.
        schema:
          type: string
    delete:
      operationId: revokeSecondaryAPIToken
      summary: Revoke a secondary API token (master API token only).
      description: Takes effect on the next request. Unknown token 400201; a listed form matching several 400111.
      responses:
        '200':
          description: The revoked token, redacted.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/APIToken'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
components:
  securitySchemes:
    apiToken:
      type: apiKey
      in: header
      name: Api-Token
      description: A server's credential, the app's master or a secondary API token.
    sessionToken:
      type: apiKey
      in: header
      name: Session-Token
      description: A device's credential for one user, from `POST /v3/users/{user_id}/token`.
  parameters:
    SendbirdSignature:
      name: x-sendbird-signature
      in: header
      required: true
      description: Lowercase hex HMAC-SHA256 of the raw body, keyed by the app's webhook secret.
      schema:
        type: string
    UserID:
      name: user_id
      in: path
      required: true
      description: Percent-encoded; 1 to 255 bytes, no control characters.
      schema:
        type: string
    TokenType:
      name: token_type
      in: path
      required: true
      description: Only `apns`; `gcm` and `huawei` are 400111 "not supported".
      schema:
        type: string
        enum: [apns]
    Token:
      name: token
      in: path
      required: true
      description: APNs device token, hex.
      schema:
        $ref: '#/components/schemas/APNsToken'
  requestBodies:
    SendbirdWebhook:
      required: true
      content:
        application/json:
          schema:
            type: object
  responses:
    WebhookAnswer:
      description: Accepted, duplicate or ignored.
      content:
        application/json:
          schema:
            type: object
            properties:
              result:
                type: string
                enum: [accepted, duplicate, ignored]
              deliveries:
                type: integer
    WebhookUnknownApp:
      description: The `app_id` is not configured on this relay.
    WebhookNotAccepted:
      description: |
        Not accepted, nothing stored: the app has no APNs configuration, or its unsent pushes
        already take longer than `delivery.max_backlog` to send (Sendbird retries after
        `Retry-After`).
      headers:
        Retry-After:
          schema:
            type: integer
    BadRequest:
      description: A client mistake; `code` says which (see the table above).
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/Error'
    Unauthorized:
      description: |
        `Api-Token` missing or wrong (code 400401); `Session-Token` malformed, unknown or
        revoked (400302) or expired (400309).
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/Error'
    Forbidden:
      description: |
        The credential is valid but may not do this (code 400108): a session token outside its
        own user's push settings, or a secondary API token managing API tokens.
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/Error'
    TooLarge:
      description: Request body over the limit (code 400110).
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/Error'
  schemas:
    Readiness:
      type: object
      required: [status, database, apps]
      properties:
        status:
          type: string
          enum: [ready, not ready]
        database:
          type: string
          description: '`writable`, or `not writable: <reason>`.'
        apps:
          type: array
          items:
            type: object
            required: [app_id, apns]
            properties:
              app_id:
                type: string
              apns:
                type: string
                description: '`not configured`, `idle`, `connecting` or `connected`.'
              connections:
                type: integer
              ready_connections:
                type: integer
              streams_in_flight:
                type: integer
              queued:
                type: integer
              certificate_not_after:
                type: string
                format: date-time
    MessageDeliveryLog:
      type: object
      properties:
        message_id:
          type: integer
          format: int64
        user_id:
          type: string
        decision:
          type: string
          nullable: true
          description: '`push`, or a skip reason code such as `online`, `no_token`, `do_not_disturb`.'
        accepted_at:
          type: integer
          format: int64
          nullable: true
        deliveries:
          type: array
          items:
            $ref: '#/components/schemas/Delivery'
    Delivery:
      type: object
      properties:
        message_id:
          type: integer
          format: int64
        user_id:
          type: string
        device_token:
          type: string
          description: At most the first 4 characters and "…" (the relay's one redaction rule).
        state:
          type: string
          enum: [pending, in_flight, sent, failed, expired, token_invalid]
        apns_id:
          type: string
        push_type:
          type: string
        priority:
          type: integer
        attempts:
          type: integer
        last_status:
          type: integer
          nullable: true
        last_reason:
          type: string
          nullable: true
        sent_at:
          type: integer
          format: int64
          nullable: true
        expires_at:
          type: integer
          format: int64
        next_attempt_at:
          type: integer
          format: int64
          nullable: true
        created_at:
          type: integer
          format: int64
        attempt_log:
          type: array
          items:
            type: object
            properties:
              at:
                type: integer
                format: int64
              status:
                type: integer
                nullable: true
              reason:
                type: string
                nullable: true
              error:
                type: string
                nullable: true
              apns_id:
                type: string
    Error:
      type: object
      required: [message, code, error]
      properties:
        message:
          type: string
        code:
          type: integer
        error:
          type: boolean
          enum: [true]
    SessionTokenRequest:
      type: object
      properties:
        expires_at:
          type: integer
          format: int64
          description: Unix milliseconds, in the future; 7 days from now when absent.
    SessionToken:
      type: object
      required: [user_id, token, expires_at]
      properties:
        user_id:
          type: string
        token:
          type: string
          pattern: '^[0-9a-f]{64}$'
        expires_at:
          type: integer
          format: int64
    Empty:
      type: object
      description: '`{}`'
    APIToken:
      type: object
      required: [token, created_at]
      properties:
        token:
          type: string
          description: In full when just created; otherwise the first 4 characters and "…".
        created_at:
          type: integer
          format: int64
          description: Unix milliseconds.
    APITokenList:
      type: object
      required: [api_tokens]
      properties:
        api_tokens:
          type: array
          items:
            $ref: '#/components/schemas/APIToken'
    APNsToken:
      type: string
      description: |
        Hex, an even number of digits, 16 to 200 characters (Apple: don't assume a size;
        today's tokens are 64). Stored and returned lowercase.
      pattern: '^([0-9a-fA-F]{2}){8,100}$'
    User:
      type: object
      description: The relay stores only the id; the profile fields are empty.
      required: [user_id, nickname, profile_url]
      properties:
        user_id:
          type: string
        nickname:
          type: string
        profile_url:
          type: string
        require_auth_for_profile_image:
          type: boolean
        metadata:
          type: object
          additionalProperties:
            type: string
    AddTokenRequest:
      type: object
      required: [apns_device_token]
      properties:
        apns_device_token:
          $ref: '#/components/schemas/APNsToken'
        is_unique:
          type: boolean
          default: false
          description: Remove the user's other tokens.
        always_push:
          type: boolean
          default: false
          description: Sent by Sendbird's SDKs; accepted, no effect (Sendbird does not document it).
    TokenAdded:
      type: object
      required: [token, type, user]
      properties:
        token:
          type: string
        type:
          type: string
          enum: [APNS]
        user:
          $ref: '#/components/schemas/User'
    TokenList:
      type: object
      required: [tokens, type, user, token]
      properties:
        tokens:
          type: array
          items:
            type: string
        type:
          type: string
          enum: [APNS]
        user:
          $ref: '#/components/schemas/User'
        token:
          type: array
          deprecated: true
          description: Sendbird's deprecated copy of `tokens`.
          items:
            type: string
    TokenRemoved:
      type: object
      required: [token, user]
      properties:
        token:
          type: string
        user:
          $ref: '#/components/schemas/User'
    TokensRemoved:
      type: object
      required: [token, user]
      properties:
        token:
          type: array
          items:
            type: string
        user:
          $ref: '#/components/schemas/User'
    TokenOwners:
      type: array
      maxItems: 1
      items:
        type: object
        required: [user_id]
        properties:
          user_id:
            type: string
    TimeWindow:
      type: object
      required: [start_hour, start_min, end_hour, end_min]
      properties:
        start_hour:
          type: integer
          minimum: 0
          maximum: 23
        start_min:
          type: integer
          minimum: 0
          maximum: 59
        end_hour:
          type: integer
          minimum: 0
          maximum: 23
        end_min:
          type: integer
          minimum: 0
          maximum: 59
    DNDSchedule:
      type: object
      required: [day_of_week, time_windows]
      properties:
        day_of_week:
          type: string
          enum: [sunday, monday, tuesday, wednesday, thursday, friday, saturday]
        time_windows:
          type: array
          maxItems: 24
          items:
            $ref: '#/components/schemas/TimeWindow'
    PushTriggerOption:
      type: string
      enum: [all, mention_only, 'off']
    PushPreferences:
      type: object
      required: [push_trigger_option, do_not_disturb, start_hour, start_min, end_hour, end_min, timezone,
        snooze_enabled, snooze_start_ts, snooze_end_ts, dnd_schedules, push_sound, block_push_from_bots,
        push_blocked_bot_ids, enable_push_for_replies]
      properties:
        push_trigger_option:
          $ref: '#/components/schemas/PushTriggerOption'
        do_not_disturb:
          type: boolean
        start_hour:
          type: integer
        start_min:
          type: integer
        end_hour:
          type: integer
        end_min:
          type: integer
        timezone:
          type: string
        snooze_enabled:
          type: boolean
        snooze_start_ts:
          type: integer
          format: int64
        snooze_end_ts:
          type: integer
          format: int64
        dnd_schedules:
          type: array
          items:
            $ref: '#/components/schemas/DNDSchedule'
        push_sound:
          type: string
        block_push_from_bots:
          type: boolean
        push_blocked_bot_ids:
          type: array
          items:
            type: string
        enable_push_for_replies:
          type: boolean
    PushPreferencesUpdate:
      type: object
      description: Every field optional; only the given ones change.
      properties:
        push_trigger_option:
          $ref: '#/components/schemas/PushTriggerOption'
        do_not_disturb:
          type: boolean
        start_hour:
          type: integer
          minimum: 0
          maximum: 23
        start_min:
          type: integer
          minimum: 0
          maximum: 59
        end_hour:
          type: integer
          minimum: 0
          maximum: 23
        end_min:
          type: integer
          minimum: 0
          maximum: 59
        timezone:
          type: string
          description: IANA name such as `Asia/Seoul`; anything else is 400111.
        snooze_enabled:
          type: boolean
        snooze_start_ts:
          description: Unix milliseconds (a decimal string is accepted too).
          oneOf:
            - type: integer
              format: int64
              minimum: 0
            - type: string
              pattern: '^[0-9]+$'
        snooze_end_ts:
          description: Unix milliseconds (a decimal string is accepted too).
          oneOf:
            - type: integer
              format: int64
              minimum: 0
            - type: string
              pattern: '^[0-9]+$'
        dnd_schedules:
          type: array
          description: At most one entry per day.
          items:
            $ref: '#/components/schemas/DNDSchedule'
        push_sound:
          type: string
          maxLength: 255
        block_push_from_bots:
          type: boolean
        push_blocked_bot_ids:
          type: array
          maxItems: 1000
          description: Bot ids; numbers are taken as their decimal text.
          items:
            oneOf:
              - type: string
              - type: integer
        enable_push_for_replies:
          type: boolean
    ChannelPushPreference:
      type: object
      required: [push_trigger_option, push_sound, enable]
      properties:
        push_trigger_option:
          type: string
          enum: [default, all, mention_only, 'off']
        push_sound:
          type: string
          description: The channel's own sound, `""` when it has none.
        enable:
          type: boolean
          deprecated: true
          description: False exactly when the option is `off`.
    ChannelPushPreferenceUpdate:
      type: object
      description: |
        `push_trigger_option` or `enable` is required. `"false"` is taken as `off` (Sendbird's
        Python SDK offers it). `enable: false` means `off`; `enable: true` alone turns an `off`
        channel back to `default`. `push_sound: ""` removes the channel's own sound.
      properties:
        push_trigger_option:
          type: string
          enum: [default, all, mention_only, 'off', 'false']
        enable:
          type: boolean
          deprecated: true
        push_sound:
          type: string
          maxLength: 255
    TemplateChoice:
      type: object
      required: [name]
      properties:
        name:
          type: string
          enum: [default, alternative]
    TemplateTexts:
      type: object
      description: |
        Variables: {sender_name}, {message}, {filename}, {channel_name}, {file_type_friendly}.
      properties:
        MESG:
          type: string
        FILE:
          type: string
        ADMM:
          type: string
    MessageTemplates:
      type: object
      required: [push_message_templates]
      properties:
        push_message_templates:
          type: array
          items:
            type: object
            required: [template_name, template]
            properties:
              template_name:
                type: string
                enum: [default, alternative]
              template:
                allOf:
                  - $ref: '#/components/schemas/TemplateTexts'
                required: [MESG, FILE, ADMM]
    MessageTemplateUpdate:
      type: object
      required: [template]
      properties:
        template:
          $ref: '#/components/schemas/TemplateTexts'

"""#
}
