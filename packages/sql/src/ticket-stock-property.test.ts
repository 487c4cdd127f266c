import { createMemoryStorage } from "@records-service/core";
import { runTicketStockPropertyTests } from "./ticket-stock-property.js";

// The reference recounts the stored tickets on each read: the property checks the model itself.
runTicketStockPropertyTests({ name: "memory", create: createMemoryStorage });
