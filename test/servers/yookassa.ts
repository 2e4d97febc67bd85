import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A loopback server speaking YooKassa's API v3 (notes/payments-auth.md Part A), for tests:
 * `POST /v3/payments` (HTTP Basic, Idempotence-Key required, a repeated key answers the first
 * payment; a redirect confirmation or a charge of a saved `payment_method_id`), `GET
 * /v3/payments/{id}` (404 error object when unknown). The test plays the payer with `succeed()`
 * and `cancel()`, and scripts faults with `failNext(route, answer…)`.
 */
export type Route = "create" | "get";
export type Scripted = { status: number; body?: unknown };
export type RecordedCall = { route: Route | "unknown"; method: string; path: string; headers: IncomingMessage["headers"]; body: unknown };

type Payment = {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  amount: { value: string; currency: string };
  description?: string;
  metadata: Record<string, string>;
  confirmation?: { type: "redirect"; confirmation_url: string; return_url: string };
  payment_method?: {
    type: "bank_card";
    id: string;
    saved: boolean;
    title: string;
    card: { first6: string; last4: string; card_type: string; expiry_month: string; expiry_year: string };
  };
  save_payment_method: boolean;
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  paid: boolean;
  test: boolean;
};

const error = (code: string, description: string) => ({ type: "error", id: randomUUID(), code, description });

export class FakeYookassa {
  readonly payments = new Map<string, Payment>();
  readonly calls: RecordedCall[] = [];
  /** Saved methods the shop may charge: method id → card. */
  readonly savedMethods = new Map<string, { last4: string; brand: string; decline?: string }>();
  private readonly byKey = new Map<string, { status: number; body: unknown }>();
  private readonly faults = new Map<Route, Scripted[]>();
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  url = "";

  constructor(
    readonly shopId = "123456",
    readonly secretKey = "test_secret",
  ) {}

  static async start(shopId?: string, secretKey?: string): Promise<FakeYookassa> {
    const fake = new FakeYookassa(shopId, secretKey);
    fake.server = createServer((req, res) => void fake.handle(req, res));
    fake.server.on("connection", (s) => {
      fake.sockets.add(s);
      s.on("close", () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v3`;
    return fake;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  failNext(route: Route, ...answers: Scripted[]): void {
    this.faults.set(route, [...(this.faults.get(route) ?? []), ...answers]);
  }

  /** The payer confirms: the payment succeeds, and the card is saved when the shop asked for it. */
  succeed(id: string, card = { last4: "1111", brand: "MasterCard" }): Payment {
    const p = this.payments.get(id)!;
    const methodId = randomUUID();
    p.status = "succeeded";
    p.paid = true;
    p.payment_method = {
      type: "bank_card",
      id: methodId,
      saved: p.save_payment_method,
      title: `Bank card *${card.last4}`,
      card: { first6: "555555", last4: card.last4, card_type: card.brand, expiry_month: "12", expiry_year: "2030" },
    };
    if (p.save_payment_method) this.savedMethods.set(methodId, card);
    return p;
  }

  cancel(id: string, reason = "expired_on_confirmation"): Payment {
    const p = this.payments.get(id)!;
    p.status = "canceled";
    p.cancellation_details = { party: "yoo_money", reason };
    return p;
  }

  /** A notification body as YooKassa posts it: the object as it is now. */
  notification(id: string, event = `payment.${this.payments.get(id)!.status}`) {
    return { type: "notification", event, object: structuredClone(this.payments.get(id)!) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const url = new URL(req.url ?? "/", "http://x");
    const route: Route | "unknown" =
      req.method === "POST" && url.pathname === "/v3/payments"
        ? "create"
        : req.method === "GET" && /^\/v3\/payments\/[^/]+$/.test(url.pathname)
          ? "get"
          : "unknown";
    this.calls.push({ route, method: req.method ?? "", path: url.pathname, headers: req.headers, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const expected = `Basic ${Buffer.from(`${this.shopId}:${this.secretKey}`).toString("base64")}`;
    if (req.headers.authorization !== expected) return send(401, error("invalid_credentials", "Basic authentication failed"));
    if (route === "unknown") return send(404, error("not_found", "Unknown endpoint"));
    const fault = this.faults.get(route)?.shift();
    if (fault) return send(fault.status, fault.body ?? error("internal_server_error", "Scripted failure"));
    if (route === "get") {
      const p = this.payments.get(decodeURIComponent(url.pathname.split("/").pop()!));
      return p ? send(200, p) : send(404, error("not_found", "Payment not found"));
    }
    const key = req.headers["idempotence-key"];
    if (typeof key !== "string" || !key) return send(400, error("invalid_request", "Idempotence-Key header is required"));
    const seen = this.byKey.get(key);
    if (seen) return send(seen.status, seen.body);
    const answer = this.create(body as Record<string, any>);
    this.byKey.set(key, answer);
    send(answer.status, answer.body);
  }

  private create(body: Record<string, any>): { status: number; body: unknown } {
    if (!body?.amount?.value || body.amount.currency !== "RUB")
      return { status: 400, body: error("invalid_request", "amount is required") };
    const id = `${randomUUID()}`;
    const base: Payment = {
      id,
      status: "pending",
      amount: { value: body.amount.value, currency: "RUB" },
      description: body.description,
      metadata: body.metadata ?? {},
      save_payment_method: body.save_payment_method === true,
      created_at: new Date().toISOString(),
      paid: false,
      test: true,
    };
    if (body.payment_method_id) {
      const card = this.savedMethods.get(body.payment_method_id);
      if (!card) return { status: 400, body: error("invalid_request", "payment_method_id is not a saved method of this shop") };
      base.payment_method = {
        type: "bank_card",
        id: body.payment_method_id,
        saved: true,
        title: `Bank card *${card.last4}`,
        card: { first6: "555555", last4: card.last4, card_type: card.brand, expiry_month: "12", expiry_year: "2030" },
      };
      if (card.decline) {
        base.status = "canceled";
        base.cancellation_details = { party: "issuer", reason: card.decline };
      } else {
        base.status = "succeeded";
        base.paid = true;
      }
    } else {
      if (body.confirmation?.type !== "redirect") return { status: 400, body: error("invalid_request", "confirmation is required") };
      base.confirmation = {
        type: "redirect",
        return_url: body.confirmation.return_url,
        confirmation_url: `https://yoomoney.test/checkout/payments/v2/contract?orderId=${id}`,
      };
    }
    this.payments.set(id, base);
    return { status: 200, body: base };
  }
}
