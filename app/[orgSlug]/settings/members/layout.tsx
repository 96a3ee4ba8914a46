import { layoutRequiring } from "@/lib/org-access";

export default layoutRequiring("members.view");
