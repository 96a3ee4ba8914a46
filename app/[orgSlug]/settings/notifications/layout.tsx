import { layoutRequiring } from "@/lib/org-access";

export default layoutRequiring("alerts.view");
