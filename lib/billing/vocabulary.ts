/**
 * The money words the pages show and filter by, defined once with the schema's enums: the ledger's
 * row types and the units a model is priced by. Pages read them here, never from db/.
 */
export { priceUnits, transactionTypes, type PriceUnit, type TransactionType } from "@/db/schema";
