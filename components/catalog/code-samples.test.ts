import { describe, expect, test } from "vitest";
import { codeSamples, pythonLiteral } from "./code-samples";

describe("success", () => {
  test("JSON becomes a Python literal: True/False/None, nested and indented", () => {
    expect(pythonLiteral({ prompt: 'a "cat"', n: 2, safe: true, raw: false, seed: null, sizes: [1, { w: 2 }], empty: {} })).toBe(
      [
        "{",
        '    "prompt": "a \\"cat\\"",',
        '    "n": 2,',
        '    "safe": True,',
        '    "raw": False,',
        '    "seed": None,',
        '    "sizes": [',
        "        1,",
        "        {",
        '            "w": 2,',
        "        },",
        "    ],",
        '    "empty": {},',
        "}",
      ].join("\n"),
    );
  });

  test("every tab calls the gateway with the same input: /run, the fal proxy, /run from Python", () => {
    const code = codeSamples("https://gw.example/", "fal-ai/flux/dev", { prompt: "x", num_images: 2 });
    expect(code.run).toContain('curl -X POST "https://gw.example/run/fal-ai/flux/dev"');
    expect(code.generate).toContain('"model": "fal-ai/flux/dev"');
    expect(code.javascript).toContain('proxyUrl: { url: "https://gw.example/api/fal/proxy", when: "always" }');
    expect(code.javascript).toContain('fal.subscribe("fal-ai/flux/dev", {\n  input: {\n    "prompt": "x",\n    "num_images": 2\n  },');
    expect(code.python).toContain('"https://gw.example/run/fal-ai/flux/dev"');
    expect(code.python).toContain('json={\n        "prompt": "x",\n        "num_images": 2,\n    },');
  });
});
