/** An llms.txt answer: Markdown, served as plain text so a browser shows it and any client reads it. */
export const markdownText = (text: string) => new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
