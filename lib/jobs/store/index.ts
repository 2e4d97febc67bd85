export * from "./shared";
export * from "./job-events";
export * from "./claim";
export * from "./runs";
export * from "./cron";
