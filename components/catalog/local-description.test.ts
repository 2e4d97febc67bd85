import { describe, expect, test } from "vitest";
import { localDescription } from "./local-description";

const model = { description: "Fast open-weight image model.", descriptionRu: "Быстрая открытая модель." };

describe("success", () => {
  test("a Russian page reads the overlay's description, an English page the English one", () => {
    expect(localDescription(model, "ru")).toEqual({ text: "Быстрая открытая модель.", lang: undefined });
    expect(localDescription(model, "en")).toEqual({ text: "Fast open-weight image model.", lang: undefined });
  });

  test("without a Russian description a Russian page shows the English one, marked as English", () => {
    expect(localDescription({ ...model, descriptionRu: null }, "ru")).toEqual({ text: "Fast open-weight image model.", lang: "en" });
  });
});
