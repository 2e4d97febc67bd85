import { audioModels } from "./models-audio";
import { imageModels } from "./models-image";
import { otherModels } from "./models-other";
import { videoModels } from "./models-video";
import type { SeedModel } from "./types";

/** The seed catalog: what a fresh install serves, and what the local catalog source knows. */
export const seedModels: SeedModel[] = [...imageModels, ...videoModels, ...audioModels, ...otherModels];
