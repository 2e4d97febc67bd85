import { createServer, type Socket } from "node:net";

export type ReceivedMail = { from: string; to: string[]; data: string };

/**
 * A loopback SMTP server speaking enough of RFC 5321 for nodemailer (EHLO, MAIL, RCPT, DATA with
 * dot-unstuffing, RSET, NOOP, QUIT; no TLS, no AUTH), recording each message it accepts.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 localhost ESMTP test");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let eol: number;
      while ((eol = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(mail);
            mail = { from: "", to: [], data: "" };
            reply("250 2.0.0 queued");
          } else mail.data += `${line.startsWith("..") ? line.slice(1) : line}\r\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") mail.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
        if (verb === "RCPT") mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
        if (verb === "RSET") mail = { from: "", to: [], data: "" };
        if (verb === "DATA") inData = true;
        const replies: Record<string, string> = {
          EHLO: "250 localhost",
          HELO: "250 localhost",
          MAIL: "250 2.1.0 ok",
          RCPT: "250 2.1.5 ok",
          DATA: "354 end with <CRLF>.<CRLF>",
          RSET: "250 ok",
          NOOP: "250 ok",
          QUIT: "221 bye",
        };
        reply(replies[verb] ?? "502 5.5.2 not implemented");
        if (verb === "QUIT") socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
