import { useEffect } from 'react';
import { useDeploymentTag } from './deployment-tag.js';

export const productName = 'Flotilla';

// "{page} | Flotilla" with the optional deployment tag in brackets.
export const pageTitle = (page: string | undefined, deploymentTag?: string | null): string => {
  const product = deploymentTag ? `${productName} [${deploymentTag}]` : productName;
  return page ? `${page} | ${product}` : product;
};

export const usePageTitle = (page: string | undefined): void => {
  const [deploymentTag] = useDeploymentTag();
  useEffect(() => {
    document.title = pageTitle(page, deploymentTag);
  }, [page, deploymentTag]);
};
