import { layoutRequiring } from "@/lib/org-access";

export default layoutRequiring("sso.manage");
