export * from "./shared";
export * from "./events";
export * from "./claim";
export * from "./runs";
export * from "./cron";
